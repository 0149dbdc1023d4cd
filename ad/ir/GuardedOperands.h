// ?:, && and || whose operands need statements before them (a call extracted or inlined, an
// assignment inside the expression): those statements run only where the forward evaluates the
// operand, under the guard that keeps it in bounds or out of a recursion. The frontend (inlined
// calls) and transforms/ExtractCalls (calls given statements of their own) both build these.
#pragma once

#include "ad/ir/Stmt.h"

namespace adjoint::ir {

// An operand and the statements that compute what it reads.
struct GuardedOperand {
  StmtList before;
  ExprPtr value;
};

// c ? a : b  as  `T selected = 0; if (c) { a.before; selected = a; } else { b.before; selected = b; }`,
// appended to `out`; returns the variable `selected` (named `name`).
ExprPtr guardedSelect(const std::string& name, const Type& type, ExprPtr cond, GuardedOperand a, GuardedOperand b,
                      SourceLoc loc, StmtList& out);

// a && b  as  `bool both = false; if (a) { b.before; both = b; }`, and a || b  as
// `bool either = true; if (!a) { b.before; either = b; }`; `op` is And or Or.
ExprPtr guardedLogical(const std::string& name, Op op, ExprPtr lhs, GuardedOperand rhs, SourceLoc loc, StmtList& out);

}  // namespace adjoint::ir
