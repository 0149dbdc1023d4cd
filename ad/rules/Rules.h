// Derivative rules. Operators (+ - * /) have theirs here; functions get theirs from C++ source
// (runtime/adjoint/rules.h for the math library, the user's own namespace adjoint::rules for
// anything else), read by the frontend into ir::Rule. Reverse mode multiplies a partial by the
// adjoint of the expression (x_bar += e_bar * de/dx); forward mode by the tangent
// (e_dot += de/dx * x_dot). One rule serves both.
#pragma once

#include <string>
#include <vector>

#include "ad/ir/Function.h"

namespace adjoint::rules {

// The partial derivative of `a op b` with respect to operand i (0: a, 1: b), for op one of
// + - * /; null for operators without a derivative (comparisons, logic, %).
ir::ExprPtr operatorPartial(ir::Op op, const ir::ExprPtr& a, const ir::ExprPtr& b, int i);

// The partial derivative of `call` (a call of a function with a rule) with respect to argument i:
// the rule's expression with the call's arguments in place of its parameters, and floating
// literals in the call's type. Null when the rule gives none for that argument. A rule that names
// the call's result (Rule::result) reads `result`, a variable holding the call's value, or, when
// none is given, the call itself (evaluated again).
ir::ExprPtr callPartial(const ir::Rule& rule, const ir::Expr& call, size_t i, const ir::ExprPtr& result = nullptr);

// The rule of `value` when it is a call whose rule reads the call's result (Rule::result); null
// otherwise.
const ir::Rule* resultReadingRule(const ir::Module& m, const ir::Expr& value);

// A call of a function with a linear rule (Rule::isLinear: the warp shuffles of runtime/adjoint/rules.h).
// What its linear argument's adjoint receives, given `adj`, the adjoint of the call's result:
// the rule's pullback called with `adj` in that argument's place.
ir::ExprPtr linearPullback(const ir::Rule& rule, const ir::Expr& call, const ir::ExprPtr& adj);
// The call's tangent: the call with the argument's tangent `dot` in its place.
ir::ExprPtr linearTangent(const ir::Rule& rule, const ir::Expr& call, const ir::ExprPtr& dot);

}  // namespace adjoint::rules
