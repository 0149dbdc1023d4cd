// Derivative rules of the math library: for f(a0, a1, ...), the partial derivative of f with
// respect to each argument, as an IR expression over the arguments. Reverse mode multiplies each
// partial by the adjoint of the call (ai_bar += f_bar * df/dai); forward mode sums partial times
// tangent (f_dot = sum df/dai * ai_dot). One rule serves both.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ad/ir/Expr.h"

namespace adjoint::rules {

using Args = std::vector<ir::ExprPtr>;

struct MathRule {
  int arity;
  // partial(args, i) = d f(args) / d args[i]
  std::function<ir::ExprPtr(const Args&, int)> partial;
};

// The rule for a math function spelled as the IR spells it ("std::sin"); null when unknown.
const MathRule* findMathRule(const std::string& callee);
// The canonical IR spelling of a math function named `name` in the source ("sinf", "std::sin",
// "sin" all give "std::sin"); empty when `name` is no math function Adjoint knows.
std::string canonicalMathName(const std::string& name);
// The names of all known math functions, for help and diagnostics.
std::vector<std::string> mathFunctionNames();

}  // namespace adjoint::rules

namespace adjoint::rules {

// The partial derivative of `a op b` with respect to operand i (0: a, 1: b), for op one of
// + - * /; null for operators without a derivative (comparisons, logic, %).
ir::ExprPtr operatorPartial(const std::string& op, const ir::ExprPtr& a, const ir::ExprPtr& b, int i);

}  // namespace adjoint::rules
