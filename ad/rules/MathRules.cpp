#include "ad/rules/MathRules.h"

#include <map>

namespace adjoint::rules {

using namespace adjoint::ir;

namespace {

ExprPtr num(double v, const ExprPtr& like) { return number(v, like->type); }
ExprPtr fn(const char* name, Args args) {
  Type t = args[0]->type.element();
  return call(std::string("std::") + name, std::move(args), t);
}
ExprPtr sq(const ExprPtr& x) { return mul(x, x); }
ExprPtr recip(const ExprPtr& x) { return div(num(1, x), x); }

constexpr double kTwoOverSqrtPi = 1.1283791670955126;
constexpr double kLn2 = 0.69314718055994531;
constexpr double kLn10 = 2.3025850929940457;

// A rule of one argument: d/dx f(x) = body(x).
MathRule unaryRule(std::function<ExprPtr(const ExprPtr&)> body) {
  return {1, [body](const Args& a, int) { return body(a[0]); }};
}
MathRule binaryRule(std::function<ExprPtr(const Args&, int)> body) { return {2, std::move(body)}; }

std::map<std::string, MathRule> buildRules() {
  std::map<std::string, MathRule> r;
  // d/dx sin x = cos x
  r["sin"] = unaryRule([](const ExprPtr& x) { return fn("cos", {x}); });
  // d/dx cos x = -sin x
  r["cos"] = unaryRule([](const ExprPtr& x) { return neg(fn("sin", {x})); });
  // d/dx tan x = 1 / cos^2 x
  r["tan"] = unaryRule([](const ExprPtr& x) { return recip(sq(fn("cos", {x}))); });
  // d/dx asin x = 1 / sqrt(1 - x^2)
  r["asin"] = unaryRule([](const ExprPtr& x) { return recip(fn("sqrt", {sub(num(1, x), sq(x))})); });
  // d/dx acos x = -1 / sqrt(1 - x^2)
  r["acos"] = unaryRule([](const ExprPtr& x) { return neg(recip(fn("sqrt", {sub(num(1, x), sq(x))}))); });
  // d/dx atan x = 1 / (1 + x^2)
  r["atan"] = unaryRule([](const ExprPtr& x) { return recip(add(num(1, x), sq(x))); });
  // d/dy atan2(y, x) = x / (x^2 + y^2);  d/dx atan2(y, x) = -y / (x^2 + y^2)
  r["atan2"] = binaryRule([](const Args& a, int i) {
    ExprPtr r2 = add(sq(a[0]), sq(a[1]));
    return i == 0 ? div(a[1], r2) : neg(div(a[0], r2));
  });
  // d/dx sinh x = cosh x
  r["sinh"] = unaryRule([](const ExprPtr& x) { return fn("cosh", {x}); });
  // d/dx cosh x = sinh x
  r["cosh"] = unaryRule([](const ExprPtr& x) { return fn("sinh", {x}); });
  // d/dx tanh x = 1 - tanh^2 x
  r["tanh"] = unaryRule([](const ExprPtr& x) { return sub(num(1, x), sq(fn("tanh", {x}))); });
  // d/dx exp x = exp x
  r["exp"] = unaryRule([](const ExprPtr& x) { return fn("exp", {x}); });
  // d/dx 2^x = 2^x ln 2
  r["exp2"] = unaryRule([](const ExprPtr& x) { return mul(fn("exp2", {x}), num(kLn2, x)); });
  // d/dx (e^x - 1) = e^x
  r["expm1"] = unaryRule([](const ExprPtr& x) { return fn("exp", {x}); });
  // d/dx log x = 1 / x
  r["log"] = unaryRule([](const ExprPtr& x) { return recip(x); });
  // d/dx log2 x = 1 / (x ln 2)
  r["log2"] = unaryRule([](const ExprPtr& x) { return recip(mul(x, num(kLn2, x))); });
  // d/dx log10 x = 1 / (x ln 10)
  r["log10"] = unaryRule([](const ExprPtr& x) { return recip(mul(x, num(kLn10, x))); });
  // d/dx log(1 + x) = 1 / (1 + x)
  r["log1p"] = unaryRule([](const ExprPtr& x) { return recip(add(num(1, x), x)); });
  // d/dx sqrt x = 1 / (2 sqrt x)
  r["sqrt"] = unaryRule([](const ExprPtr& x) { return recip(mul(num(2, x), fn("sqrt", {x}))); });
  // d/dx cbrt x = 1 / (3 cbrt(x)^2)
  r["cbrt"] = unaryRule([](const ExprPtr& x) { return recip(mul(num(3, x), sq(fn("cbrt", {x})))); });
  // d/dx x^y = y x^(y-1);  d/dy x^y = x^y ln x
  r["pow"] = binaryRule([](const Args& a, int i) {
    const ExprPtr &x = a[0], &y = a[1];
    if (i == 1) return mul(fn("pow", {x, y}), fn("log", {x}));
    if (y->kind == ExprKind::Number && y->value == 2) return mul(num(2, x), x);
    return mul(cast(x->type, y), fn("pow", {x, sub(y, num(1, y))}));
  });
  // d/dx hypot(x, y) = x / hypot(x, y);  d/dy hypot(x, y) = y / hypot(x, y)
  r["hypot"] = binaryRule([](const Args& a, int i) { return div(a[i], fn("hypot", {a[0], a[1]})); });
  // d/dx erf x = 2/sqrt(pi) e^(-x^2)
  r["erf"] = unaryRule([](const ExprPtr& x) { return mul(num(kTwoOverSqrtPi, x), fn("exp", {neg(sq(x))})); });
  // d/dx erfc x = -2/sqrt(pi) e^(-x^2)
  r["erfc"] = unaryRule([](const ExprPtr& x) { return mul(num(-kTwoOverSqrtPi, x), fn("exp", {neg(sq(x))})); });
  // d/dx |x| = sign x  (0 at x = 0 is taken as +1, a subgradient)
  r["fabs"] = unaryRule([](const ExprPtr& x) { return select(binary("<", x, num(0, x)), num(-1, x), num(1, x)); });
  // d/da fmin(a, b) = [a <= b];  d/db fmin(a, b) = [a > b]
  r["fmin"] = binaryRule([](const Args& a, int i) {
    ExprPtr firstWins = binary("<=", a[0], a[1]);
    return i == 0 ? select(firstWins, num(1, a[0]), num(0, a[0])) : select(firstWins, num(0, a[1]), num(1, a[1]));
  });
  // d/da fmax(a, b) = [a >= b];  d/db fmax(a, b) = [a < b]
  r["fmax"] = binaryRule([](const Args& a, int i) {
    ExprPtr firstWins = binary(">=", a[0], a[1]);
    return i == 0 ? select(firstWins, num(1, a[0]), num(0, a[0])) : select(firstWins, num(0, a[1]), num(1, a[1]));
  });
  // d/da fma(a, b, c) = b;  d/db = a;  d/dc = 1
  r["fma"] = {3, [](const Args& a, int i) { return i == 0 ? a[1] : i == 1 ? a[0] : num(1, a[2]); }};
  // floor, ceil, round, trunc are piecewise constant: derivative 0 where it exists.
  for (const char* step : {"floor", "ceil", "round", "trunc"})
    r[step] = unaryRule([](const ExprPtr& x) { return num(0, x); });
  return r;
}

const std::map<std::string, MathRule>& rules() {
  static const std::map<std::string, MathRule> table = buildRules();
  return table;
}

}  // namespace

const MathRule* findMathRule(const std::string& callee) {
  if (callee.rfind("std::", 0) != 0) return nullptr;
  auto it = rules().find(callee.substr(5));
  return it == rules().end() ? nullptr : &it->second;
}

std::string canonicalMathName(const std::string& name) {
  std::string base = name.rfind("std::", 0) == 0 ? name.substr(5) : name;
  if (rules().count(base)) return "std::" + base;
  // C's float variants: sinf, expf, fabsf, ...
  if (base.size() > 1 && base.back() == 'f' && rules().count(base.substr(0, base.size() - 1)))
    return "std::" + base.substr(0, base.size() - 1);
  return {};
}

std::vector<std::string> mathFunctionNames() {
  std::vector<std::string> names;
  for (const auto& [name, rule] : rules()) names.push_back(name);
  return names;
}

}  // namespace adjoint::rules
