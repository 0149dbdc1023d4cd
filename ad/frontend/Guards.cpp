// ?:, && and || whose operands need statements before them (an inlined call, an assignment
// inside the expression, the loop of a std::accumulate): those statements run only where the
// forward evaluates the operand, under the guard that keeps it in bounds or out of a recursion.
#include <clang/AST/Expr.h>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

// c ? a : b  is  `T selected = 0; if (c) { ...a needs; selected = a; } else { ...b needs; selected = b; }`
// where a or b needs statements, else the select itself. (In a loop's head, where no statement
// can go, the operands are converted without any: what needs one is reported.)
ir::ExprPtr Converter::convertConditional(const ConditionalOperator* c) {
  ir::ExprPtr cond = convertExpr(c->getCond());
  ir::StmtList* outer = prelude_;
  ir::StmtList thenBefore, elseBefore;
  ir::ExprPtr a, b;
  {
    PreludeTo branch(prelude_, outer ? &thenBefore : nullptr);
    a = convertExpr(c->getTrueExpr());
  }
  {
    PreludeTo branch(prelude_, outer ? &elseBefore : nullptr);
    b = convertExpr(c->getFalseExpr());
  }
  if (thenBefore.empty() && elseBefore.empty()) return ir::select(cond, a, b);
  auto type = convertType(c->getType(), c->getSourceRange());
  if (!type) return placeholder();
  if (type->isStruct())
    return unsupportedExpr(c, "a struct chosen by ?: from a call that is inlined is not supported",
                           "choose with if/else, assigning the struct in each branch");
  ir::SourceLoc at = loc(c->getBeginLoc());
  ir::ExprPtr selected = ir::var(freshName("selected"), *type);
  thenBefore.push_back(ir::at(ir::assign(selected, ir::Op::Assign, a), at));
  elseBefore.push_back(ir::at(ir::assign(selected, ir::Op::Assign, b), at));
  outer->push_back(ir::at(ir::decl(selected->text, *type, ir::number(0, *type)), at));
  outer->push_back(ir::at(ir::ifStmt(cond, thenBefore, elseBefore), at));
  return selected;
}

// a && b  is  `bool both = false; if (a) { ...b needs; both = b; }`, and a || b  is
// `bool either = true; if (!a) { ...b needs; either = b; }`, where b needs statements.
ir::ExprPtr Converter::convertLogical(const BinaryOperator* l, ir::Op op) {
  ir::ExprPtr lhs = convertExpr(l->getLHS());
  ir::StmtList* outer = prelude_;
  ir::StmtList rhsBefore;
  ir::ExprPtr rhs;
  {
    PreludeTo right(prelude_, outer ? &rhsBefore : nullptr);
    rhs = convertExpr(l->getRHS());
  }
  if (rhsBefore.empty()) return ir::binary(op, lhs, rhs);
  bool isAnd = op == ir::Op::And;
  ir::SourceLoc at = loc(l->getBeginLoc());
  ir::ExprPtr value = ir::var(freshName(isAnd ? "both" : "either"), ir::Type::of(ir::Scalar::Bool));
  rhsBefore.push_back(ir::at(ir::assign(value, ir::Op::Assign, rhs), at));
  outer->push_back(ir::at(ir::decl(value->text, value->type, ir::boolean(!isAnd)), at));
  outer->push_back(ir::at(ir::ifStmt(isAnd ? lhs : ir::unary(ir::Op::Not, lhs), rhsBefore), at));
  return value;
}

}  // namespace adjoint::frontend::detail
