// Each math rule against a central difference of the function itself, evaluated by a tiny
// interpreter over the IR expression the rule builds.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <map>

#include "ad/rules/MathRules.h"

using namespace adjoint;
using namespace adjoint::ir;

namespace {

double eval(const Expr& e, const std::map<std::string, double>& env) {
  auto arg = [&](int i) { return eval(*e.operands[i], env); };
  switch (e.kind) {
    case ExprKind::Number: return e.value;
    case ExprKind::Bool: return e.text == "true";
    case ExprKind::Var: return env.at(e.text);
    case ExprKind::Unary: return e.text == "-" ? -arg(0) : !arg(0);
    case ExprKind::Cast: return arg(0);
    case ExprKind::Select: return arg(0) ? arg(1) : arg(2);
    case ExprKind::Binary: {
      double a = arg(0), b = arg(1);
      const std::string& op = e.text;
      if (op == "+") return a + b;
      if (op == "-") return a - b;
      if (op == "*") return a * b;
      if (op == "/") return a / b;
      if (op == "<") return a < b;
      if (op == "<=") return a <= b;
      if (op == ">") return a > b;
      if (op == ">=") return a >= b;
      break;
    }
    case ExprKind::Call: {
      static const std::map<std::string, std::function<double(double, double, double)>> fns{
          {"std::sin", [](double a, double, double) { return std::sin(a); }},
          {"std::cos", [](double a, double, double) { return std::cos(a); }},
          {"std::tan", [](double a, double, double) { return std::tan(a); }},
          {"std::asin", [](double a, double, double) { return std::asin(a); }},
          {"std::acos", [](double a, double, double) { return std::acos(a); }},
          {"std::atan", [](double a, double, double) { return std::atan(a); }},
          {"std::atan2", [](double a, double b, double) { return std::atan2(a, b); }},
          {"std::sinh", [](double a, double, double) { return std::sinh(a); }},
          {"std::cosh", [](double a, double, double) { return std::cosh(a); }},
          {"std::tanh", [](double a, double, double) { return std::tanh(a); }},
          {"std::exp", [](double a, double, double) { return std::exp(a); }},
          {"std::exp2", [](double a, double, double) { return std::exp2(a); }},
          {"std::expm1", [](double a, double, double) { return std::expm1(a); }},
          {"std::log", [](double a, double, double) { return std::log(a); }},
          {"std::log2", [](double a, double, double) { return std::log2(a); }},
          {"std::log10", [](double a, double, double) { return std::log10(a); }},
          {"std::log1p", [](double a, double, double) { return std::log1p(a); }},
          {"std::sqrt", [](double a, double, double) { return std::sqrt(a); }},
          {"std::cbrt", [](double a, double, double) { return std::cbrt(a); }},
          {"std::pow", [](double a, double b, double) { return std::pow(a, b); }},
          {"std::hypot", [](double a, double b, double) { return std::hypot(a, b); }},
          {"std::erf", [](double a, double, double) { return std::erf(a); }},
          {"std::erfc", [](double a, double, double) { return std::erfc(a); }},
          {"std::fabs", [](double a, double, double) { return std::fabs(a); }},
          {"std::fmin", [](double a, double b, double) { return std::fmin(a, b); }},
          {"std::fmax", [](double a, double b, double) { return std::fmax(a, b); }},
          {"std::fma", [](double a, double b, double c) { return std::fma(a, b, c); }},
          {"std::floor", [](double a, double, double) { return std::floor(a); }},
          {"std::ceil", [](double a, double, double) { return std::ceil(a); }},
          {"std::round", [](double a, double, double) { return std::round(a); }},
          {"std::trunc", [](double a, double, double) { return std::trunc(a); }},
      };
      double a = arg(0), b = e.operands.size() > 1 ? arg(1) : 0, c = e.operands.size() > 2 ? arg(2) : 0;
      return fns.at(e.text)(a, b, c);
    }
    default: break;
  }
  FAIL("cannot evaluate " << e.text);
  return 0;
}

}  // namespace

TEST_CASE("every math rule matches central differences") {
  const Type d = Type::of(Scalar::Double);
  std::vector<double> point{0.37, 0.61, 0.23};
  for (const std::string& name : rules::mathFunctionNames()) {
    const rules::MathRule* rule = rules::findMathRule("std::" + name);
    REQUIRE(rule);
    CAPTURE(name);
    rules::Args args;
    std::map<std::string, double> env;
    for (int i = 0; i < rule->arity; ++i) {
      std::string v = "a" + std::to_string(i);
      args.push_back(var(v, d));
      env[v] = point[i];
    }
    ExprPtr f = call("std::" + name, args, d);
    for (int i = 0; i < rule->arity; ++i) {
      CAPTURE(i);
      double h = 1e-6;
      auto shifted = env;
      shifted["a" + std::to_string(i)] += h;
      double plus = eval(*f, shifted);
      shifted["a" + std::to_string(i)] -= 2 * h;
      double minus = eval(*f, shifted);
      double fd = (plus - minus) / (2 * h);
      double exact = eval(*rule->partial(args, i), env);
      CHECK(exact == doctest::Approx(fd).epsilon(1e-6));
    }
  }
}

TEST_CASE("C float variants map to the canonical names") {
  CHECK(rules::canonicalMathName("sinf") == "std::sin");
  CHECK(rules::canonicalMathName("std::exp") == "std::exp");
  CHECK(rules::canonicalMathName("fabsf") == "std::fabs");
  CHECK(rules::canonicalMathName("printf").empty());
}
