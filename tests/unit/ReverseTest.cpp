// Reverse and forward mode on IR built by hand: what is taped and what is recomputed.
#include <doctest/doctest.h>

#include "ad/derive/Derivatives.h"
#include "ad/ir/Printer.h"
#include "transforms/BlocksInTurn.h"
#include "transforms/CommonCalls.h"
#include "transforms/DeadCode.h"
#include "transforms/ExtractCalls.h"
#include "transforms/FlattenBlocks.h"
#include "transforms/HalvingLoops.h"
#include "transforms/ParallelAdjoints.h"
#include "transforms/SeedStores.h"
#include "transforms/Simplify.h"
#include "transforms/StructureJumps.h"
#include "transforms/UniqueNames.h"

using namespace adjoint;
using namespace adjoint::ir;

namespace {

const Type kDouble = Type::of(Scalar::Double);
const Type kInt = Type::integer();

// The rules the tests' functions call, as the frontend would read them from adjoint/rules.h.
void addRules(Module& m) {
  ExprPtr x = var("x", kDouble);
  m.rules["std::exp"] = Rule{{"x"}, {call("std::exp", {x}, kDouble)}};
  m.rules["std::log"] = Rule{{"x"}, {div(number(1, kDouble), x)}};
  m.rules["std::sin"] = Rule{{"x"}, {call("std::cos", {x}, kDouble)}};
}

// double f(const double* x, int n) { double acc = 0; for (int i = 0; i < n; ++i) acc += exp(x[i]);
//                                    return log(acc); }
Module logSumExp() {
  ExprPtr x = var("x", kDouble.pointerTo(true)), i = var("i", kInt), acc = var("acc", kDouble);
  Function f;
  f.name = "lse";
  f.returnType = kDouble;
  f.params = {{"x", kDouble.pointerTo(true)}, {"n", kInt}};
  f.body = {
      decl("acc", kDouble, number(0, kDouble)),
      forStmt(decl("i", kInt, number(0, kInt)), binary(Op::Lt, i, var("n", kInt)), assign(i, Op::Add, number(1, kInt)),
              {assign(acc, Op::Add, call("std::exp", {index(x, i)}, kDouble))}),
      ret(call("std::log", {acc}, kDouble))};
  Module m;
  m.functions.push_back(f);
  addRules(m);
  return m;
}

// double g(double x, int n) { double v = x; for (...) v = sin(v); return v; }
Module iteratedSine() {
  ExprPtr v = var("v", kDouble), i = var("i", kInt);
  Function f;
  f.name = "iter";
  f.returnType = kDouble;
  f.params = {{"x", kDouble}, {"n", kInt}};
  f.body = {decl("v", kDouble, var("x", kDouble)),
            forStmt(decl("i", kInt, number(0, kInt)), binary(Op::Lt, i, var("n", kInt)),
                    assign(i, Op::Add, number(1, kInt)), {assign(v, Op::Assign, call("std::sin", {v}, kDouble))}),
            ret(v)};
  Module m;
  m.functions.push_back(f);
  addRules(m);
  return m;
}

// double g(double x) { double e = exp(x); double s = e + x; e = exp(s); return s + e; }, with
// exp's rule reading its result: exp_dx(x, y) = y.
Module storedResults() {
  ExprPtr x = var("x", kDouble), e = var("e", kDouble), s = var("s", kDouble);
  Function f;
  f.name = "results";
  f.returnType = kDouble;
  f.params = {{"x", kDouble}};
  f.body = {decl("e", kDouble, call("std::exp", {x}, kDouble)), decl("s", kDouble, add(e, x)),
            assign(e, Op::Assign, call("std::exp", {s}, kDouble)), ret(add(s, e))};
  Module m;
  m.functions.push_back(f);
  m.rules["std::exp"] = Rule{{"x", "y"}, {var("y", kDouble), ExprPtr()}, "y"};
  return m;
}

std::string reverse(const Module& m, const std::string& fn) {
  auto fs = derive::differentiate(m, {fn, {}, true}, derive::Mode::Reverse);
  return print(fs.front());
}

}  // namespace

TEST_CASE("a linear accumulation is not taped, and exp is recomputed") {
  std::string g = reverse(logSumExp(), "lse");
  CHECK(g.find("void lse_grad(const double* x, int n, double* x_bar)") != std::string::npos);
  CHECK(g.find("tape") == std::string::npos);
  CHECK(g.find("for (int i = n - 1; i >= 0; --i)") != std::string::npos);
  CHECK(g.find("x_bar[i] += acc_bar * std::exp(x[i]);") != std::string::npos);
}

TEST_CASE("a value overwritten in a loop and read by its derivative is taped") {
  std::string g = reverse(iteratedSine(), "iter");
  CHECK(g.find("v_tape.push_back(v);") != std::string::npos);
  CHECK(g.find("v = adjoint_pop(v_tape);") != std::string::npos);
  CHECK(g.find("std::cos(v)") != std::string::npos);
}

TEST_CASE("a rule reading the call's result reads the local holding it, while the local holds it") {
  std::string g = reverse(storedResults(), "results");
  CHECK(g.find("tape") == std::string::npos);
  // The second exp's value is e's last: read. The first's was overwritten: evaluated again,
  // rather than restored from a tape.
  CHECK(g.find("s_bar += e_bar * e;") != std::string::npos);
  CHECK(g.find("std::exp(x)") != std::string::npos);
  auto fs = derive::differentiate(storedResults(), {"results", {}, true}, derive::Mode::Forward);
  std::string jvp = print(fs.front());
  CHECK(jvp.find("e = std::exp(s);\n  e_dot = s_dot * e;") != std::string::npos);
}

TEST_CASE("forward mode carries tangents next to values") {
  auto fs = derive::differentiate(logSumExp(), {"lse", {}, true}, derive::Mode::Forward);
  std::string g = print(fs.front());
  CHECK(g.find("double lse_jvp(const double* x, int n, const double* x_dot)") != std::string::npos);
  CHECK(g.find("acc_dot += x_dot[i] * std::exp(x[i]);") != std::string::npos);
  CHECK(g.find("return acc_dot / acc;") != std::string::npos);
}

TEST_CASE("simplify merges accumulations into the same place") {
  ExprPtr xb = var("x_bar", kDouble);
  Function f;
  f.body = {assign(xb, Op::Add, var("a", kDouble)), assign(xb, Op::Add, var("b", kDouble)),
            assign(var("y_bar", kDouble), Op::Add, var("c", kDouble))};
  transforms::simplify(f);
  CHECK(print(f.body) == "x_bar += a + b;\ny_bar += c;\n");
}

TEST_CASE(
    "device code: an addition to an element waits for a later one to merge with, past statements leaving it alone") {
  Type doubles = kDouble.pointerTo(false);
  ExprPtr element = index(var("x_bar", doubles), var("i", Type::integer()));
  auto body = [&](StmtPtr between) {
    Function f;
    f.device = true;
    f.body = {assign(element, Op::Add, var("a", kDouble)), between, assign(element, Op::Add, var("t", kDouble))};
    transforms::simplify(f);
    return print(f.body);
  };
  CHECK(body(decl("t", kDouble, call("g", {var("b", kDouble)}, kDouble))) == "double t = g(b);\nx_bar[i] += a + t;\n");
  // not past a change of what it reads, a use of its array, or a return
  CHECK(body(assign(var("a", kDouble), Op::Assign, var("b", kDouble))) == "x_bar[i] += a;\na = b;\nx_bar[i] += t;\n");
  CHECK(body(decl("t", kDouble, index(var("x_bar", doubles), number(0, Type::integer())))).find("x_bar[i] += a;") == 0);
  CHECK(body(ifStmt(var("c", Type::of(Scalar::Bool)), {ret(nullptr)})).find("x_bar[i] += a;") == 0);
}
