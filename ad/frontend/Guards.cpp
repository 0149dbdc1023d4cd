// ?:, && and || whose operands need statements before them (an inlined call, an assignment
// inside the expression, the loop of a std::accumulate): see ad/ir/GuardedOperands.h.
#include <clang/AST/Expr.h>

#include "ad/frontend/Converter.h"
#include "ad/ir/GuardedOperands.h"

namespace adjoint::frontend::detail {

// c ? a : b  is a guarded select where a or b needs statements, else the select itself. (In a loop's head, where no
// statement can go, the operands are converted without any: what needs one is reported.)
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
  return ir::guardedSelect(freshName("selected"), *type, cond, {std::move(thenBefore), a}, {std::move(elseBefore), b},
                           loc(c->getBeginLoc()), *outer);
}

// a && b and a || b are guarded where b needs statements.
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
  return ir::guardedLogical(freshName(op == ir::Op::And ? "both" : "either"), op, lhs, {std::move(rhsBefore), rhs},
                            loc(l->getBeginLoc()), *outer);
}

}  // namespace adjoint::frontend::detail
