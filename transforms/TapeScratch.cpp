#include "transforms/TapeScratch.h"

#include <map>

#include "ad/analysis/RunSlots.h"
#include "ad/ir/Diagnostic.h"
#include "ad/ir/Printer.h"
#include "ad/ir/Rewriter.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

// The tapes a function declares (removed from the body), by name with their element types.
std::map<std::string, Type> takeTapes(StmtList& body) {
  std::map<std::string, Type> tapes;
  for (size_t k = 0; k < body.size();) {
    const Stmt& s = *body[k];
    if (s.kind == StmtKind::Decl && s.type.tape) {
      tapes[s.name] = s.type.element();
      body.erase(body.begin() + static_cast<long>(k));
    } else {
      ++k;
    }
  }
  return tapes;
}

class Scratch : public Rewriter {
 public:
  Scratch(Function& d, std::map<std::string, Type> tapes)
      : d_(d), tapes_(std::move(tapes)), threads_(d), runs_(d, threads_) {}

  void run() {
    rewrite(d_.body);
    for (const auto& [name, element] : tapes_) {
      auto push = perThread_.find(name);
      if (push == perThread_.end()) throw InternalError("a kernel's tape '" + name + "' that nothing pushes to");
      d_.params.push_back(Param{name, element.pointerTo(false), Role::TapeScratch});
      d_.tapeScratch.push_back({name, push->second});
    }
  }

 private:
  Function& d_;
  std::map<std::string, Type> tapes_;
  analysis::ThreadIndexing threads_;
  analysis::RunSlots runs_;  // made before the rewriting
  std::map<std::string, ExprPtr> perThread_;

  void enter(Stmt& s) override {
    if (s.kind == StmtKind::Push) return store(s);
    for (ExprPtr* e : {&s.lhs, &s.expr}) *e = readBack(*e, s);
    for (ExprPtr& a : s.args) a = readBack(a, s);
  }

  analysis::RunSlot slotOf(const Stmt& s, const std::string& tape) const {
    std::optional<analysis::RunSlot> run = runs_.of(s);
    if (!run)
      throw Diagnostic(
          d_.loc,
          "the reverse of '" + d_.primal + "' would record values on a tape ('" + tape +
              "') in a loop whose runs cannot be counted before the launch",
          "kernels keep such values in global scratch, a slot per run, in counted loops whose bounds are "
          "literals, the kernel's scalar parameters or blockDim.x; or declare a new local instead of reassigning one");
    return *run;
  }

  // tape.push_back(v) as tape[slot] = v.
  void store(Stmt& s) {
    const std::string& tape = s.lhs->text;
    if (perThread_.count(tape)) throw InternalError("a kernel's tape '" + tape + "' pushed at two places");
    analysis::RunSlot run = slotOf(s, tape);
    perThread_[tape] = run.perThread;
    SourceLoc loc = s.loc;
    std::string comment = s.comment;
    s = *assign(index(var(tape, tapes_.at(tape).pointerTo(false)), run.slot), Op::Assign, s.expr);
    s.loc = loc;
    s.comment = comment;
  }

  // Pops and tops of the tapes in e as reads of the slot of the run of `s`, which must count the
  // runs as the push does.
  ExprPtr readBack(const ExprPtr& e, const Stmt& s) {
    if (!e) return e;
    if ((e->kind == ExprKind::Pop || e->kind == ExprKind::Top) && tapes_.count(e->operands[0]->text)) {
      const std::string& tape = e->operands[0]->text;
      analysis::RunSlot run = slotOf(s, tape);
      auto push = perThread_.find(tape);
      if (push == perThread_.end() || print(*push->second) != print(*run.perThread))
        throw InternalError("the reverse of a kernel reads its tape '" + tape +
                            "' where its runs differ from the push's (" + print(*run.perThread) + " against " +
                            (push == perThread_.end() ? std::string("none") : print(*push->second)) + ")");
      return index(var(tape, tapes_.at(tape).pointerTo(false)), run.slot);
    }
    if (e->operands.empty()) return e;
    auto copy = std::make_shared<Expr>(*e);
    for (ExprPtr& op : copy->operands) op = readBack(op, s);
    return copy;
  }
};

}  // namespace

void tapesInScratch(Function& kernel) {
  std::map<std::string, Type> tapes = takeTapes(kernel.body);
  if (!tapes.empty()) Scratch(kernel, std::move(tapes)).run();
}

}  // namespace adjoint::transforms
