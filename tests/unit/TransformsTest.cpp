#include <doctest/doctest.h>

#include "ad/ir/Diagnostic.h"
#include "ad/ir/Printer.h"
#include "transforms/BlocksInTurn.h"
#include "transforms/BranchProbes.h"
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
}  // namespace

TEST_CASE("an early return moves the rest of the function into the else branch") {
  Function f;
  ExprPtr x = var("x", kDouble);
  f.body = {ifStmt(binary(Op::Gt, x, number(1, kDouble)), {ret(x)}), assign(x, Op::Mul, number(2, kDouble)), ret(x)};
  transforms::structureJumps(f);
  CHECK(print(f.body) == "if (x > 1.0) {\n  return x;\n} else {\n  x *= 2.0;\n  return x;\n}\n");
}

TEST_CASE("a for loop with continue becomes a while loop that steps on every path") {
  Function f;
  ExprPtr i = var("i", kInt), s = var("s", kDouble);
  f.body = {forStmt(decl("i", kInt, number(0, kInt)), binary(Op::Lt, i, number(4, kInt)),
                    assign(i, Op::Add, number(1, kInt)),
                    {ifStmt(binary(Op::Eq, i, number(2, kInt)), {jump(StmtKind::Continue)}),
                     assign(s, Op::Add, number(1, kDouble))})};
  transforms::structureJumps(f);
  transforms::flattenBlocks(f);
  CHECK(print(f.body) ==
        "int i = 0;\nwhile (i < 4) {\n  if (i == 2) {\n    ++i;\n  } else {\n    s += 1.0;\n    ++i;\n  }\n}\n");
}

TEST_CASE("a return inside a loop becomes a flag, a break, and a return after the loop") {
  Function f;
  f.returnType = kDouble;
  ExprPtr i = var("i", kInt);
  f.body = {whileStmt(binary(Op::Lt, i, number(4, kInt)), {ret(number(7, kDouble))}), ret(number(0, kDouble))};
  transforms::structureJumps(f);
  CHECK(print(f.body) ==
        "bool returned = false;\ndouble result = 0.0;\nwhile (i < 4) {\n  result = 7.0;\n  returned = true;\n  "
        "break;\n}\n"
        "if (returned) {\n  return result;\n} else {\n  return 0.0;\n}\n");
}

TEST_CASE("shadowed locals get their own names") {
  Function f;
  f.body = {decl("t", kDouble, number(1, kDouble)),
            block({decl("t", kDouble, number(2, kDouble)), assign(var("t", kDouble), Op::Add, number(1, kDouble))})};
  transforms::uniqueLocalNames(f);
  CHECK(print(f.body) == "double t = 1.0;\n{\n  double t_2 = 2.0;\n  t_2 += 1.0;\n}\n");
}

TEST_CASE("#line directives name the forward line of each statement") {
  StmtPtr a = at(assign(var("x", kDouble), Op::Assign, number(1, kDouble)), {7, 3});
  StmtPtr b = assign(var("y", kDouble), Op::Assign, number(2, kDouble));
  StmtPtr c = at(assign(var("z", kDouble), Op::Assign, number(3, kDouble)), {9, 3});
  PrintOptions options;
  options.lineFile = "model.cpp";
  CHECK(print({a, b, c}, 0, options) == "#line 7 \"model.cpp\"\nx = 1.0;\ny = 2.0;\n#line 9 \"model.cpp\"\nz = 3.0;\n");
}

TEST_CASE("calls under ?: and && move into ifs that keep their guards") {
  Module m;
  Function g;
  g.name = "g";
  g.returnType = kDouble;
  m.functions.push_back(g);
  Function f;
  f.name = "f";
  ExprPtr x = var("x", kDouble), v = var("v", kDouble), gx = call("g", {x}, kDouble);
  f.body = {
      decl("v", kDouble, select(binary(Op::Gt, x, number(0, kDouble)), gx, neg(x))),
      decl("b", Type::of(Scalar::Bool), binary(Op::And, binary(Op::Lt, x, number(1, kDouble)), binary(Op::Gt, gx, v)))};
  transforms::extractCalls(f, m);
  CHECK(
      print(f.body) ==
      "double selected = 0.0;\nif (x > 0.0) {\n  selected = g(x);\n} else {\n  selected = -x;\n}\n"
      "double v = selected;\nbool both = false;\nif (x < 1.0) {\n  double g_result = g(x);\n  both = g_result > v;\n}\n"
      "bool b = both;\n");
}

TEST_CASE("branch probes report each condition and call each other's probes") {
  Module m;
  Function f, h;
  f.name = "f";
  h.name = "h";
  f.returnType = h.returnType = kDouble;
  ExprPtr x = var("x", kDouble);
  f.body = {at(ifStmt(binary(Op::Gt, x, number(0, kDouble)), {ret(call("h", {x}, kDouble))}), {3, 3}),
            at(ret(select(binary(Op::And, binary(Op::Lt, x, number(1, kDouble)), boolean(true)), x, neg(x))), {4, 3})};
  h.body = {at(ret(x), {7, 3})};
  m.functions = {f, h};
  transforms::BranchProbes probes = transforms::branchProbes(m, "f", "probe");
  REQUIRE(probes.functions.size() == 2);
  CHECK(probes.functions[0].name == "f_branch_probe");
  CHECK(print(probes.functions[0].body) ==
        "if (probe(0, x > 0.0)) {\n  return h_branch_probe(x);\n}\nreturn probe(2, probe(1, x < 1.0) && true) ? x : "
        "-x;\n");
  CHECK(probes.branches == std::vector<std::string>{"line 3: x > 0.0", "line 4: x < 1.0", "line 4: x < 1.0 && true"});
}

TEST_CASE("dead-code removal drops unread locals and empty branches, and keeps stores into the caller's arrays") {
  Function f;
  f.name = "f";
  ExprPtr x = var("x", kDouble), t = var("t", kDouble), y = var("y", kDouble.pointerTo(false));
  f.params = {{"x", kDouble}, {"y", kDouble.pointerTo(false)}};
  f.body = {decl("t", kDouble, mul(x, x)),                                              // read by nothing after
            decl("u", kDouble, call("std::sin", {x}, kDouble)),                         // only feeds t2
            decl("t2", kDouble, var("u", kDouble)),                                     // unread
            ifStmt(binary(Op::Gt, x, number(0, kDouble)), {assign(t, Op::Assign, x)}),  // assigns only the dead t
            assign(index(y, number(0, kInt)), Op::Assign, x)};                          // the caller's array
  Module m;
  m.rules["std::sin"] = Rule{};
  transforms::removeDeadCode(f, &m);
  CHECK(print(f.body) == "y[0] = x;\n");
}

TEST_CASE("dead-code removal keeps calls that may write through a pointer, and drops pure ones") {
  Function f;
  ExprPtr x = var("x", kDouble), a = var("a", kDouble.pointerTo(false));
  f.params = {{"x", kDouble}, {"a", kDouble.pointerTo(false)}};
  Function g;
  g.name = "g";
  g.returnType = kDouble;
  g.params = {{"p", kDouble.pointerTo(false)}};
  Module m;
  m.functions = {g};
  m.rules["std::exp"] = Rule{};
  f.body = {decl("r", kDouble, call("g", {a}, kDouble)), decl("e", kDouble, call("std::exp", {x}, kDouble))};
  transforms::removeDeadCode(f, &m);
  CHECK(print(f.body) == "double r = g(a);\n");
}

TEST_CASE("a pure call repeated by neighbouring statements is computed once") {
  Function f;
  ExprPtr x = var("x", kDouble), a = var("a", kDouble), b = var("b", kDouble), e = call("std::exp", {x}, kDouble);
  f.params = {{"x", kDouble}};
  f.body = {assign(a, Op::Add, mul(e, x)), assign(b, Op::Add, e), assign(x, Op::Assign, number(1, kDouble)),
            assign(a, Op::Add, e)};
  Module m;
  m.rules["std::exp"] = Rule{};
  transforms::shareCommonCalls(f, m);
  // The third statement changes x: the call after it is another value.
  CHECK(print(f.body) ==
        "const double exp_x = std::exp(x);\na += exp_x * x;\nb += exp_x;\nx = 1.0;\na += std::exp(x);\n");
}

TEST_CASE("a pure call under a guard is not computed before its guard") {
  Function f;
  ExprPtr i = var("i", kInt), n = var("n", kInt), v = var("v", kDouble), w = var("w", kDouble);
  ExprPtr e = call("std::exp", {index(var("x", kDouble.pointerTo(true)), i)}, kDouble);
  ExprPtr guard = binary(Op::Lt, i, n);
  f.body = {assign(v, Op::Assign, select(guard, e, number(0, kDouble))),
            assign(w, Op::Assign, binary(Op::And, guard, binary(Op::Gt, e, number(1, kDouble))))};
  Module m;
  m.rules["std::exp"] = Rule{};
  transforms::shareCommonCalls(f, m);
  // x[i] may lie past the end of x where i < n fails: the calls stay where they were.
  CHECK(print(f.body) == "v = i < n ? std::exp(x[i]) : 0.0;\nw = i < n && std::exp(x[i]) > 1.0;\n");
}
