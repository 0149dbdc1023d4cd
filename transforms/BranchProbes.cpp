#include "transforms/BranchProbes.h"

#include "ad/ir/Naming.h"
#include "ad/ir/Printer.h"
#include "ad/ir/Rewriter.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

class Prober : public Rewriter {
 public:
  Prober(const Module& m, const std::string& hook, BranchProbes& out) : m_(m), hook_(hook), out_(out) {}

  void function(const Function& f) {
    Function probe = f;
    probe.name = naming::branchProbeOf(f.name);
    probe.internal = true;  // defined in the harness, next to the code that calls it
    probe.doc.clear();
    probe.body = clone(f.body);
    line_ = f.loc.line;
    rewrite(probe.body);
    out_.functions.push_back(probe);
  }

 private:
  const Module& m_;
  const std::string& hook_;
  BranchProbes& out_;
  unsigned line_ = 0;

  // `hook(k, probedCondition)`, branch k described by the condition as the forward wrote it.
  ExprPtr probed(const ExprPtr& condition, const ExprPtr& probedCondition) {
    out_.branches.push_back("line " + std::to_string(line_) + ": " + print(*condition));
    ExprPtr k = number(static_cast<double>(out_.branches.size() - 1), Type::integer());
    return call(hook_, {k, probedCondition}, Type::of(Scalar::Bool));
  }

  ExprPtr expr(const ExprPtr& e) {
    if (!e || e->operands.empty()) return e;
    auto copy = std::make_shared<Expr>(*e);
    for (ExprPtr& op : copy->operands) op = expr(op);
    if (copy->kind == ExprKind::Select || (copy->kind == ExprKind::Binary && isLogical(copy->op)))
      copy->operands[0] = probed(e->operands[0], copy->operands[0]);
    if (copy->kind == ExprKind::Call && m_.find(copy->text)) copy->text = naming::branchProbeOf(copy->text);
    return copy;
  }

  void enter(Stmt& s) override {
    if (s.loc.line) line_ = s.loc.line;
    ExprPtr condition = s.expr;
    s.lhs = expr(s.lhs);
    s.expr = expr(s.expr);
    for (ExprPtr& a : s.args) a = expr(a);
    bool branch = s.kind == StmtKind::If || s.kind == StmtKind::While || s.kind == StmtKind::DoWhile;
    if (branch) s.expr = probed(condition, s.expr);
    for (StmtPtr* part : {&s.init, &s.step})
      if (*part) enter(**part);
  }
};

}  // namespace

BranchProbes branchProbes(const Module& m, const std::string& entry, const std::string& hook) {
  BranchProbes out;
  Prober prober(m, hook, out);
  if (const Function* f = m.find(entry)) prober.function(*f);
  for (const Function& f : m.functions)
    if (f.name != entry && !f.kernel) prober.function(f);
  return out;
}

}  // namespace adjoint::transforms
