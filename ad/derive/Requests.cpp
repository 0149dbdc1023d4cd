#include "ad/derive/Requests.h"

#include "ad/analysis/Activity.h"
#include "ad/ir/Naming.h"

namespace adjoint::derive {

using namespace ir;

std::vector<const Param*> differentiatedParams(const Function& f, const std::set<std::string>& wrt) {
  std::set<std::string> written = analysis::writtenVariables(f.body);
  std::vector<const Param*> out;
  for (const Param& p : f.params) {
    if (!p.type.isDifferentiable() || p.nondifferentiable) continue;
    bool output = p.type.pointer && !p.type.constPointee && written.count(p.name);
    if (wrt.empty() || wrt.count(p.name) || output) out.push_back(&p);
  }
  return out;
}

std::string derivativeName(const Function& f, const std::set<std::string>& wrt, Mode mode, bool entry,
                           naming::Variant variant) {
  using naming::Derivative;
  if (entry)
    return naming::derivativeOf(f.name, mode == Mode::Forward ? Derivative::Jvp
                                        : f.returnsFloating() ? Derivative::Gradient
                                                              : Derivative::Vjp);
  // A kernel's derivatives keep the kernel's conventions, whoever requests them (K_vjp, K_jvp),
  // with respect to its arrays unless named otherwise.
  std::string name = naming::derivativeOf(f.name,
                                          mode == Mode::Forward ? Derivative::Jvp
                                          : f.kernel            ? Derivative::Vjp
                                                                : Derivative::Pullback,
                                          variant);
  std::set<std::string> all;
  for (const Param* p : differentiatedParams(f, {}))
    if (!f.kernel || p->type.pointer) all.insert(p->name);
  return wrt == all ? name : naming::withRespectTo(name, wrt);
}

std::string Requests::need(const Function& callee, const std::set<std::string>& wrt, Mode mode,
                           naming::Variant variant) {
  auto key = std::make_tuple(callee.name, wrt, variant);
  auto it = names_.find(key);
  if (it != names_.end()) return it->second;
  std::string name = derivativeName(callee, wrt, mode, false, variant);
  names_[key] = name;
  pending_.push_back(Request{callee.name, wrt, false, std::nullopt, variant});
  return name;
}

void Requests::enqueueEntry(const Function& f, const Request& r, Mode mode) {
  // A forward-mode entry point is also what recursive calls use; a reverse-mode one is not (it
  // seeds the result with 1 instead of taking the result's adjoint).
  if (mode == Mode::Forward)
    names_[std::make_tuple(f.name, r.wrt, naming::Variant::Plain)] = derivativeName(f, r.wrt, mode, true);
  pending_.push_back(r);
}

bool Requests::next(Request& out) {
  if (pending_.empty()) return false;
  out = pending_.front();
  pending_.pop_front();
  return true;
}

}  // namespace adjoint::derive
