#include "ad/analysis/Loops.h"

#include "ad/analysis/Activity.h"

namespace adjoint::analysis {

using namespace ir;

bool asCountedLoop(const Stmt& s, CountedLoop& out) {
  if (s.kind != StmtKind::For || !s.init || !s.step || !s.expr) return false;
  const Stmt& init = *s.init;
  const Stmt& step = *s.step;
  // An unsigned counter is left to the general form: its reverse `i >= a` would never fail at 0.
  if (init.kind != StmtKind::Decl || init.type.scalar != Scalar::Int || init.type.isUnsigned || init.type.isIndexed() ||
      !init.expr)
    return false;
  const std::string& i = init.name;
  bool stepsCounter = step.kind == StmtKind::Assign && step.lhs->kind == ExprKind::Var && step.lhs->text == i;
  bool unitStep = stepsCounter && (step.op == Op::Add || step.op == Op::Sub) && isOne(step.expr);
  bool strided = stepsCounter && step.op == Op::Add && !unitStep && !step.expr->type.isFloating() &&
                 !readVariables(step.expr).count(i);
  if (!unitStep && !strided) return false;
  const Expr& cond = *s.expr;
  if (cond.kind != ExprKind::Binary || !isComparison(cond.op)) return false;
  // `i + c < b` is `i < b - c` (and `i - c < b` is `i < b + c`) for an integer literal c.
  ExprPtr bound = cond.operands[1];
  const Expr* lhs = cond.operands[0].get();
  if ((isOp(*lhs, Op::Add) || isOp(*lhs, Op::Sub)) && lhs->operands[1]->kind == ExprKind::Number &&
      lhs->operands[1]->type.scalar == Scalar::Int) {
    bound = lhs->op == Op::Add ? sub(bound, lhs->operands[1]) : add(bound, lhs->operands[1]);
    lhs = lhs->operands[0].get();
  }
  if (lhs->kind != ExprKind::Var || lhs->text != i || bound->type.isFloating()) return false;
  bool increasing = step.op == Op::Add;
  bool ok = increasing ? (cond.op == Op::Lt || cond.op == Op::Le) : (cond.op == Op::Gt || cond.op == Op::Ge);
  if (!ok) return false;
  std::set<std::string> written = assignedVariables(s.body);
  bool jumps = false;
  walk(s.body, [&](const Stmt& x) {
    jumps |= x.kind == StmtKind::Break || x.kind == StmtKind::Continue || x.kind == StmtKind::Return;
  });
  if (jumps || written.count(i)) return false;
  for (const ExprPtr& e : {init.expr, bound, step.expr})
    for (const std::string& v : readVariables(e))
      if (written.count(v)) return false;
  out = CountedLoop{i,
                    init.type,
                    init.expr,
                    bound,
                    increasing,
                    cond.op == Op::Le || cond.op == Op::Ge,
                    strided ? step.expr : nullptr};
  return true;
}

ExprPtr lastValue(const CountedLoop& loop) {
  ExprPtr one = number(1, loop.counterType);
  ExprPtr last = loop.inclusive ? loop.bound : (loop.increasing ? sub(loop.bound, one) : add(loop.bound, one));
  if (!loop.step) return last;
  return add(loop.first, mul(div(sub(last, loop.first), loop.step), loop.step));
}

StmtPtr reversedLoop(const CountedLoop& loop, StmtList body) {
  ExprPtr i = var(loop.counter, loop.counterType);
  ExprPtr cond = binary(loop.increasing ? Op::Ge : Op::Le, i, loop.first);
  if (!loop.step)
    return forStmt(decl(loop.counter, loop.counterType, lastValue(loop)), cond,
                   assign(i, loop.increasing ? Op::Sub : Op::Add, number(1, loop.counterType)), std::move(body));
  // The start a + (b - 1 - a) / s * s is the last value only when the loop runs at all.
  StmtPtr reversed = forStmt(decl(loop.counter, loop.counterType, lastValue(loop)), cond, assign(i, Op::Sub, loop.step),
                             std::move(body));
  return ifStmt(binary(loop.inclusive ? Op::Le : Op::Lt, loop.first, loop.bound), {reversed});
}

}  // namespace adjoint::analysis
