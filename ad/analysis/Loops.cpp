#include "ad/analysis/Loops.h"

#include "ad/analysis/Activity.h"

namespace adjoint::analysis {

using namespace ir;

namespace {

// The variables whose values `e` reads: a container's size() reads none (writing an element does
// not change it), save in `grown`, the vectors a loop's body grows or shrinks.
std::set<std::string> valuesRead(const ExprPtr& e, const std::set<std::string>& grown) {
  if (e->kind == ExprKind::Member && e->operands[0]->type.isContainer()) {
    const std::string& container = rootName(*e->operands[0]);
    return grown.count(container) ? std::set<std::string>{container} : std::set<std::string>{};
  }
  if (e->kind == ExprKind::Var) return {e->text};
  std::set<std::string> out;
  for (const ExprPtr& op : e->operands) out.merge(valuesRead(op, grown));
  return out;
}

std::set<std::string> resizedVectors(const StmtList& body) {
  std::set<std::string> names;
  walk(body, [&](const Stmt& s) {
    if (s.kind == StmtKind::Eval && isResize(*s.expr)) names.insert(s.expr->operands[0]->text);
  });
  return names;
}

// Whether the loop's body leaves the values `e` reads alone.
bool invariantIn(const StmtList& body, std::initializer_list<ExprPtr> exprs) {
  std::set<std::string> written = assignedVariables(body);
  std::set<std::string> grown = resizedVectors(body);
  written.insert(grown.begin(), grown.end());
  for (const ExprPtr& e : exprs)
    for (const std::string& v : valuesRead(e, grown))
      if (written.count(v)) return false;
  return true;
}

}  // namespace

bool asCountedLoop(const Stmt& s, CountedLoop& out) {
  if (s.kind != StmtKind::For || !s.init || !s.step || !s.expr) return false;
  const Stmt& init = *s.init;
  const Stmt& step = *s.step;
  if (init.kind != StmtKind::Decl || init.type.scalar != Scalar::Int || init.type.isIndexed() || !init.expr)
    return false;
  bool isUnsigned = init.type.isUnsigned;
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
  // (Not for an unsigned counter, where b - c wraps around below c.)
  if ((isOp(*lhs, Op::Add) || isOp(*lhs, Op::Sub)) && lhs->operands[1]->kind == ExprKind::Number &&
      lhs->operands[1]->type.scalar == Scalar::Int && !isUnsigned) {
    bound = lhs->op == Op::Add ? sub(bound, lhs->operands[1]) : add(bound, lhs->operands[1]);
    lhs = lhs->operands[0].get();
  }
  bool increasing = step.op == Op::Add;
  // `(size_t)i < 8u` (a counter from a literal at least 0 up to a literal bound of another integer
  // type, k < p.size of a pack): the same as `i < 8`.
  const Expr& counter = stripCasts(*lhs);
  if (&counter != lhs && counter.kind == ExprKind::Var && counter.text == i && increasing && !isUnsigned &&
      init.expr->kind == ExprKind::Number && init.expr->value >= 0 && bound->kind == ExprKind::Number &&
      bound->type.scalar == Scalar::Int && bound->value <= 2147483647.0) {
    bound = number(bound->value, init.type);
    lhs = &counter;
  }
  if (lhs->kind != ExprKind::Var || lhs->text != i || bound->type.isFloating()) return false;
  bool ok = increasing ? (cond.op == Op::Lt || cond.op == Op::Le) : (cond.op == Op::Gt || cond.op == Op::Ge);
  // An unsigned counter counting up runs back down to a by `i + 1 > a` (see reversedLoop).
  if (!ok || (isUnsigned && increasing && strided)) return false;
  std::set<std::string> written = assignedVariables(s.body);
  bool jumps = false;
  walk(s.body, [&](const Stmt& x) {
    jumps |= x.kind == StmtKind::Break || x.kind == StmtKind::Continue || x.kind == StmtKind::Return;
  });
  if (jumps || written.count(i)) return false;
  if (!invariantIn(s.body, {init.expr, bound, step.expr})) return false;
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
  // Unsigned, `i >= a` would never fail at a = 0: `i + 1 > a` is false once --i passes a (or wraps
  // around from 0), and from the start b - 1 when the loop ran no iteration (b <= a, or b = 0).
  if (loop.increasing && loop.counterType.isUnsigned)
    cond = binary(Op::Gt, add(i, number(1, loop.counterType)), loop.first);
  if (!loop.step)
    return forStmt(decl(loop.counter, loop.counterType, lastValue(loop)), cond,
                   assign(i, loop.increasing ? Op::Sub : Op::Add, number(1, loop.counterType)), std::move(body));
  // The start a + (b - 1 - a) / s * s is the last value only when the loop runs at all.
  StmtPtr reversed = forStmt(decl(loop.counter, loop.counterType, lastValue(loop)), cond, assign(i, Op::Sub, loop.step),
                             std::move(body));
  return ifStmt(binary(loop.inclusive ? Op::Le : Op::Lt, loop.first, loop.bound), {reversed});
}

// for (int i = a + (b - 1 - a) / s * s; i >= a; i -= s), with a, b and s left alone by the body.
bool asReversedStridedLoop(const Stmt& s, CountedLoop& forward) {
  if (s.kind != StmtKind::For || !s.init || !s.step || !s.expr || s.init->kind != StmtKind::Decl || !s.init->expr)
    return false;
  const std::string& i = s.init->name;
  const Stmt& step = *s.step;
  const Expr& cond = *s.expr;
  if (step.kind != StmtKind::Assign || step.op != Op::Sub || step.lhs->kind != ExprKind::Var || step.lhs->text != i ||
      !isOp(cond, Op::Ge) || cond.operands[0]->kind != ExprKind::Var || cond.operands[0]->text != i)
    return false;
  const ExprPtr& first = cond.operands[1];
  const ExprPtr& stride = step.expr;
  // The start: first + (last - first) / stride * stride.
  const Expr& start = *s.init->expr;
  if (!isOp(start, Op::Add) || !sameExpr(*start.operands[0], *first) || !isOp(*start.operands[1], Op::Mul))
    return false;
  const Expr& times = *start.operands[1];
  if (!sameExpr(*times.operands[1], *stride) || !isOp(*times.operands[0], Op::Div)) return false;
  const Expr& quotient = *times.operands[0];
  if (!sameExpr(*quotient.operands[1], *stride) || !isOp(*quotient.operands[0], Op::Sub) ||
      !sameExpr(*quotient.operands[0]->operands[1], *first))
    return false;
  ExprPtr last = quotient.operands[0]->operands[0];
  bool exclusive = isOp(*last, Op::Sub) && isOne(last->operands[1]);
  if (!invariantIn(s.body, {first, last, stride}) || assignedVariables(s.body).count(i)) return false;
  forward = CountedLoop{i, s.init->type, first, exclusive ? last->operands[0] : last, true, !exclusive, stride};
  return true;
}

}  // namespace adjoint::analysis
