#include "transforms/HalvingLoops.h"

#include "ad/analysis/Activity.h"
#include "ad/ir/Rewriter.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

bool isNumber(const Expr& e, double value) { return e.kind == ExprKind::Number && e.value == value; }

// The loop's counter when `s` is `for (T c = a; c > 0 (or c >= 1); c /= 2 (or c >>= 1))` and
// neither c nor what a reads is assigned in the body.
const Stmt* halvingCounter(const Stmt& s) {
  if (s.kind != StmtKind::For || !s.init || !s.step || !s.expr) return nullptr;
  const Stmt& init = *s.init;
  if (init.kind != StmtKind::Decl || init.type.scalar != Scalar::Int || init.type.isIndexed() || !init.expr)
    return nullptr;
  const Expr& cond = *s.expr;
  bool positive =
      cond.kind == ExprKind::Binary && cond.operands[0]->kind == ExprKind::Var && cond.operands[0]->text == init.name &&
      ((cond.op == Op::Gt && isNumber(*cond.operands[1], 0)) || (cond.op == Op::Ge && isNumber(*cond.operands[1], 1)));
  const Stmt& step = *s.step;
  bool halves = step.kind == StmtKind::Assign && step.lhs->kind == ExprKind::Var && step.lhs->text == init.name &&
                ((step.op == Op::Div && isNumber(*step.expr, 2)) || (step.op == Op::Shr && isNumber(*step.expr, 1)));
  if (!positive || !halves) return nullptr;
  std::set<std::string> written = analysis::assignedVariables(s.body);
  if (written.count(init.name)) return nullptr;
  for (const std::string& v : analysis::readVariables(init.expr))
    if (written.count(v)) return nullptr;
  return &init;
}

// Each halving loop becomes a counted loop over its halvings, its counter computed from them.
class HalvingCounter : public Rewriter {
  StmtList rewriteStmt(const StmtPtr& s) override {
    const Stmt* counter = halvingCounter(*s);
    if (!counter) return {s};
    Type k = Type::integer();
    ExprPtr step = var(counter->name + "_halving", k);
    StmtPtr value = at(decl(counter->name, counter->type, binary(Op::Shr, counter->expr, step)), counter->loc);
    value->comment = "halving loop, counted: " + counter->name + " halves each iteration";
    StmtList loopBody{value};
    loopBody.insert(loopBody.end(), s->body.begin(), s->body.end());
    StmtPtr loop =
        forStmt(decl(step->text, k, number(0, k)), binary(Op::Lt, step, call("adjoint::halvings", {counter->expr}, k)),
                assign(step, Op::Add, number(1, k)), loopBody);
    loop->loc = s->loc;
    loop->comment = s->comment;
    loop->section = s->section;
    return {loop};
  }
};

}  // namespace

void countHalvingLoops(Function& f) {
  if (f.kernel || f.device) HalvingCounter().rewrite(f.body);
}

}  // namespace adjoint::transforms
