#include "ad/rules/MathRules.h"

namespace adjoint::rules {

using namespace ir;

ExprPtr operatorPartial(const std::string& op, const ExprPtr& a, const ExprPtr& b, int i) {
  Type t = (i == 0 ? a : b)->type;
  if (!t.isFloating()) t = (i == 0 ? b : a)->type;
  ExprPtr one = number(1, t);
  // d(a + b)/da = 1;  d(a + b)/db = 1
  if (op == "+") return one;
  // d(a - b)/da = 1;  d(a - b)/db = -1
  if (op == "-") return i == 0 ? one : neg(one);
  // d(a * b)/da = b;  d(a * b)/db = a
  if (op == "*") return i == 0 ? b : a;
  // d(a / b)/da = 1 / b;  d(a / b)/db = -a / b^2
  if (op == "/") return i == 0 ? div(one, b) : neg(div(a, mul(b, b)));
  return nullptr;
}

}  // namespace adjoint::rules
