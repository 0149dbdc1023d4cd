#include "ad/ir/GuardedOperands.h"

namespace adjoint::ir {

ExprPtr guardedSelect(const std::string& name, const Type& type, ExprPtr cond, GuardedOperand a, GuardedOperand b,
                      SourceLoc loc, StmtList& out) {
  ExprPtr selected = var(name, type);
  a.before.push_back(at(assign(selected, Op::Assign, std::move(a.value)), loc));
  b.before.push_back(at(assign(selected, Op::Assign, std::move(b.value)), loc));
  out.push_back(at(decl(name, type, number(0, type)), loc));
  out.push_back(at(ifStmt(std::move(cond), std::move(a.before), std::move(b.before)), loc));
  return selected;
}

ExprPtr guardedLogical(const std::string& name, Op op, ExprPtr lhs, GuardedOperand rhs, SourceLoc loc, StmtList& out) {
  bool isAnd = op == Op::And;
  ExprPtr value = var(name, Type::of(Scalar::Bool));
  rhs.before.push_back(at(assign(value, Op::Assign, std::move(rhs.value)), loc));
  out.push_back(at(decl(name, value->type, boolean(!isAnd)), loc));
  out.push_back(at(ifStmt(isAnd ? std::move(lhs) : unary(Op::Not, std::move(lhs)), std::move(rhs.before)), loc));
  return value;
}

}  // namespace adjoint::ir
