#include "transforms/RangeLoops.h"

#include "ad/ir/Names.h"

namespace adjoint::transforms {

using namespace ir;

bool asRangeLoop(const StmtPtr& s, RangeLoop& out) {
  Stmt* loop = s.get();
  const Expr* guard = nullptr;
  if (s->kind == StmtKind::If && s->elseBody.empty() && s->body.size() == 1) {
    guard = s->expr.get();
    loop = s->body[0].get();
  }
  if (loop->kind != StmtKind::For || !loop->init || loop->init->kind != StmtKind::Decl || !loop->init->expr ||
      !loop->expr || !loop->step || loop->step->kind != StmtKind::Assign)
    return false;
  out = {s, loop, guard};
  return true;
}

ExprPtr renamed(const ExprPtr& e, const std::map<std::string, ExprPtr>& names) {
  return substitute(e, [&](const Expr& v) -> ExprPtr {
    auto it = names.find(v.text);
    return it == names.end() ? nullptr : it->second;
  });
}

bool sameRange(const RangeLoop& a, const RangeLoop& b) {
  if ((a.guard == nullptr) != (b.guard == nullptr) || (a.guard && !sameExpr(*a.guard, *b.guard))) return false;
  std::map<std::string, ExprPtr> toB{{a.counter(), b.counterVar()}};
  const Stmt &sa = *a.loop->step, &sb = *b.loop->step;
  return sameExpr(*a.loop->init->expr, *b.loop->init->expr) && sameExpr(*renamed(a.loop->expr, toB), *b.loop->expr) &&
         sa.op == sb.op && sameExpr(*renamed(sa.lhs, toB), *sb.lhs) && sameExpr(*renamed(sa.expr, toB), *sb.expr);
}

bool collectReads(const ExprPtr& e, const Module& m, Reads& out) {
  bool ok = true;
  walk(e, [&](const Expr& x) {
    switch (x.kind) {
      case ExprKind::Index:
        ok &= x.operands[0]->kind == ExprKind::Var && x.operands[0]->type.pointer && !x.operands[0]->type.shared;
        if (ok) out.arrays.insert(x.operands[0]->text);
        break;
      case ExprKind::Var:
        if (!x.type.isIndexed()) out.scalars.emplace(x.text, x.type);
        ok &= !x.type.shared;
        break;
      case ExprKind::Call:
        ok &= m.isPureCall(x);
        break;
      case ExprKind::Pop:
      case ExprKind::Top:
      case ExprKind::Verbatim:
      case ExprKind::Member:
        ok = false;
        break;
      case ExprKind::Unary:
        ok &= x.op != Op::Deref && x.op != Op::AddressOf;
        break;
      default:
        break;
    }
  });
  return ok;
}

bool jumpsOrWaits(const StmtPtr& s) {
  bool found = false;
  walk(s, [&](const Stmt& x) {
    found |= x.kind == StmtKind::Break || x.kind == StmtKind::Continue || x.kind == StmtKind::Return;
  });
  walkExprs(StmtList{s}, [&](const Expr& e) { found |= isBarrier(e); });
  return found;
}

std::string loopPlace(const Stmt& s) {
  return s.loc.line ? "the loop of line " + std::to_string(s.loc.line) : "a loop";
}

std::map<std::string, int> mentions(const StmtList& body) {
  std::map<std::string, int> count;
  walkExprs(body, [&](const Expr& e) {
    if (e.kind == ExprKind::Var) ++count[e.text];
  });
  return count;
}

}  // namespace adjoint::transforms
