#include "ad/derive/Derivatives.h"

#include "ad/analysis/Activity.h"
#include "ad/derive/ForwardMode.h"
#include "ad/derive/HostLevel.h"
#include "ad/derive/ReverseMode.h"
#include "ad/ir/Diagnostic.h"

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

void markUnusedParams(Function& g) {
  std::set<std::string> used = analysis::readVariables(g.body);
  for (Param& p : g.params) p.unused = !used.count(p.name);
}

std::string derivativeName(const Function& f, const std::set<std::string>& wrt, Mode mode, bool entry, bool withValue) {
  if (entry) return f.name + (mode == Mode::Forward ? "_jvp" : f.returnsFloating() ? "_grad" : "_vjp");
  // A kernel's derivatives keep the kernel's conventions, whoever requests them (K_vjp, K_jvp),
  // with respect to its arrays unless named otherwise.
  std::string name = f.name + (withValue ? "_value_and" : "") +
                     (mode == Mode::Forward ? "_jvp"
                      : f.kernel            ? "_vjp"
                                            : "_pullback");
  std::set<std::string> all;
  for (const Param* p : differentiatedParams(f, {}))
    if (!f.kernel || p->type.pointer) all.insert(p->name);
  if (wrt == all) return name;
  name += "_wrt";
  for (const std::string& p : wrt) name += "_" + p;
  return name;
}

std::string Requests::need(const Function& callee, const std::set<std::string>& wrt, Mode mode, bool withValue) {
  auto key = std::make_tuple(callee.name, wrt, withValue);
  auto it = names_.find(key);
  if (it != names_.end()) return it->second;
  std::string name = derivativeName(callee, wrt, mode, false, withValue);
  names_[key] = name;
  pending_.push_back(Request{callee.name, wrt, false, std::nullopt, withValue});
  return name;
}

void Requests::enqueueEntry(const Function& f, const Request& r, Mode mode) {
  // A forward-mode entry point is also what recursive calls use; a reverse-mode one is not (it
  // seeds the result with 1 instead of taking the result's adjoint).
  if (mode == Mode::Forward) names_[std::make_tuple(f.name, r.wrt, false)] = derivativeName(f, r.wrt, mode, true);
  pending_.push_back(r);
}

bool Requests::next(Request& out) {
  if (pending_.empty()) return false;
  out = pending_.front();
  pending_.pop_front();
  return true;
}

std::vector<Function> differentiate(const Module& prepared, const Request& entry, Mode mode) {
  const Function* f = prepared.find(entry.function);
  if (!f) throw InternalError("differentiating '" + entry.function + "', which the prepared module lacks");
  Request first = entry;
  first.wrt.clear();
  for (const Param* p : differentiatedParams(*f, entry.wrt)) first.wrt.insert(p->name);
  Requests q;
  q.enqueueEntry(*f, first, mode);
  std::vector<Function> out;
  for (Request r; q.next(r);) {
    const Function& g = *prepared.find(r.function);
    if (isHostLevel(g, prepared))
      out.push_back(hostDerivative(prepared, g, r, q, mode));
    else
      out.push_back(mode == Mode::Forward ? forwardFunction(prepared, g, r, q) : reverseFunction(prepared, g, r, q));
    // A kernel's derivatives are kernels, a device function's are device functions.
    out.back().kernel = g.kernel;
    out.back().device = g.device;
    out.back().host = g.host;
  }
  return out;
}

}  // namespace adjoint::derive
