// The passes that turn the reverse sweep's accumulations into stores and register sums.
#include <doctest/doctest.h>

#include "ad/ir/Printer.h"
#include "transforms/RegisterSums.h"
#include "transforms/ZeroedAdjoints.h"

using namespace adjoint;
using namespace adjoint::ir;

namespace {
const Type kDouble = Type::of(Scalar::Double);
const Type kInt = Type::integer();
const Type kArray = kDouble.pointerTo(false);

ExprPtr v(const char* name) { return var(name, kDouble); }
ExprPtr zero() { return number(0, kDouble); }

// for (int j = 0; j < n; ++j) { body }
StmtPtr loopOverJ(StmtList body) {
  ExprPtr j = var("j", kInt);
  return forStmt(decl("j", kInt, number(0, kInt)), binary(Op::Lt, j, var("n", kInt)),
                 assign(j, Op::Add, number(1, kInt)), std::move(body));
}
}  // namespace

TEST_CASE("an accumulation into an adjoint zeroed at the end of every iteration is a store, and the zeroing goes") {
  Function f;
  f.body = {decl("t_bar", kDouble, zero()), decl("x_bar", kDouble, zero()),
            loopOverJ({assign(v("t_bar"), Op::Add, v("y")), assign(v("x_bar"), Op::Sub, mul(v("t_bar"), v("x"))),
                       assign(v("t_bar"), Op::Assign, zero())})};
  transforms::storeIntoZeroedAdjoints(f);
  // x_bar sums over the iterations: it stays an accumulation.
  CHECK(print(f.body) ==
        "double t_bar = 0.0;\ndouble x_bar = 0.0;\nfor (int j = 0; j < n; ++j) {\n  t_bar = y;\n  x_bar -= t_bar * "
        "x;\n}\n");
}

TEST_CASE("an adjoint zero on one branch only, or read after its zeroing, keeps its accumulation and zeroing") {
  Function f;
  ExprPtr c = binary(Op::Gt, v("x"), zero());
  f.body = {decl("t_bar", kDouble, zero()),         ifStmt(c, {assign(v("t_bar"), Op::Add, v("y"))}),
            assign(v("t_bar"), Op::Add, v("x")),    assign(v("s"), Op::Add, v("t_bar")),
            assign(v("t_bar"), Op::Assign, zero()), assign(v("s"), Op::Add, v("t_bar"))};
  transforms::storeIntoZeroedAdjoints(f);
  CHECK(print(f.body) ==
        "double t_bar = 0.0;\nif (x > 0.0) {\n  t_bar = y;\n}\nt_bar += x;\ns += t_bar;\nt_bar = 0.0;\ns += t_bar;\n");
}

TEST_CASE("a loop with a break keeps zero only what it never writes") {
  Function f;
  f.body = {decl("t_bar", kDouble, zero()), decl("u_bar", kDouble, zero()),
            loopOverJ({assign(v("u_bar"), Op::Add, v("y")), assign(v("t_bar"), Op::Add, v("u_bar")),
                       assign(v("u_bar"), Op::Assign, zero()), jump(StmtKind::Break)})};
  transforms::storeIntoZeroedAdjoints(f);
  CHECK(print(f.body) ==
        "double t_bar = 0.0;\ndouble u_bar = 0.0;\nfor (int j = 0; j < n; ++j) {\n  u_bar += y;\n  t_bar "
        "+= u_bar;\n  u_bar = 0.0;\n  break;\n}\n");
}

TEST_CASE("additions a loop makes at an index it does not change are summed in a local") {
  Function f;
  f.params = {{"a_bar", kArray}, {"i", kInt}, {"n", kInt}};
  ExprPtr a = var("a_bar", kArray), i = var("i", kInt), j = var("j", kInt);
  f.body = {loopOverJ({assign(index(a, i), Op::Add, v("d")), assign(index(a, j), Op::Sub, v("d")),
                       assign(index(a, add(i, number(1, kInt))), Op::Add, v("d"))})};
  transforms::sumInRegisters(f);
  CHECK(
      print(f.body) ==
      "// what the loop below adds to a_bar[i]\ndouble a_bar_sum = 0.0;\n// what the loop below adds to a_bar[i + 1]\n"
      "double a_bar_sum_2 = 0.0;\nfor (int j = 0; j < n; ++j) {\n  a_bar_sum += d;\n  a_bar[j] -= d;\n  a_bar_sum_2 += "
      "d;\n}\na_bar[i] += a_bar_sum;\na_bar[i + 1] += a_bar_sum_2;\n");
}

TEST_CASE("an adjoint array the loop reads, or an index it changes, is left in memory") {
  Function f;
  f.params = {{"a_bar", kArray}, {"b_bar", kArray}, {"i", kInt}, {"n", kInt}};
  ExprPtr a = var("a_bar", kArray), b = var("b_bar", kArray), i = var("i", kInt), k = var("k", kInt);
  StmtList body{assign(index(a, i), Op::Add, v("d")), assign(v("s"), Op::Add, index(a, var("j", kInt))),
                assign(index(b, k), Op::Add, v("d")), assign(k, Op::Add, number(1, kInt))};
  f.body = {loopOverJ(body)};
  transforms::sumInRegisters(f);
  CHECK(print(f.body) ==
        "for (int j = 0; j < n; ++j) {\n  a_bar[i] += d;\n  s += a_bar[j];\n  b_bar[k] += d;\n  ++k;\n}\n");
}
