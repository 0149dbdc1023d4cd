#include <doctest/doctest.h>

#include "ad/ir/Printer.h"
#include "ad/rules/Rules.h"

using namespace adjoint;
using namespace adjoint::ir;

namespace {
const Type kDouble = Type::of(Scalar::Double);
const Type kFloat = Type::of(Scalar::Float);
}  // namespace

TEST_CASE("a rule is instantiated with the call's arguments and folded") {
  // pow_dx(x, y) = y * pow(x, y - 1)
  ExprPtr x = var("x", kDouble), y = var("y", kDouble);
  Rule pow{{"x", "y"}, {mul(y, call("std::pow", {x, sub(y, number(1, kDouble))}, kDouble)), ExprPtr()}};
  ExprPtr a = var("a", kDouble);
  ExprPtr squared = call("std::pow", {a, number(2, Type::integer())}, kDouble);
  CHECK(print(*rules::callPartial(pow, *squared, 0)) == "2 * a");
  CHECK_FALSE(static_cast<bool>(rules::callPartial(pow, *squared, 1)));
}

TEST_CASE("floating literals of a rule take the type of a float call") {
  ExprPtr x = var("x", kDouble);
  Rule half{{"x"}, {div(number(1, kDouble), mul(number(2, kDouble), x))}};
  ExprPtr f = call("std::sqrt", {var("u", kFloat)}, kFloat);
  CHECK(print(*rules::callPartial(half, *f, 0)) == "1.0f / (2.0f * u)");
}

TEST_CASE("a rule reading the call's result reads the variable holding it, or else the call") {
  // tanh_dx(x, y) = 1 - y * y
  ExprPtr y = var("y", kDouble);
  Rule tanh{{"x", "y"}, {sub(number(1, kDouble), mul(y, y)), ExprPtr()}, "y"};
  CHECK(tanh.partialReadsResult(0));
  CHECK_FALSE(tanh.partialReadsResult(1));
  ExprPtr f = call("std::tanh", {var("u", kFloat)}, kFloat);
  CHECK(print(*rules::callPartial(tanh, *f, 0, var("h", kFloat))) == "1.0f - h * h");
  CHECK(print(*rules::callPartial(tanh, *f, 0)) == "1.0f - std::tanh(u) * std::tanh(u)");
}

TEST_CASE("operator partials") {
  ExprPtr a = var("a", kDouble), b = var("b", kDouble);
  CHECK(print(*rules::operatorPartial(Op::Mul, a, b, 0)) == "b");
  CHECK(print(*rules::operatorPartial(Op::Div, a, b, 1)) == "-(a / (b * b))");
  CHECK_FALSE(static_cast<bool>(rules::operatorPartial(Op::Lt, a, b, 0)));
}
