// join-row-passes on hand-built reverse sweeps: two loops over a row, each adding into x_bar.
#include <doctest/doctest.h>

#include "HandBuiltIr.h"
#include "ad/ir/Printer.h"
#include "transforms/JoinRowPasses.h"

using namespace adjoint;
using namespace adjoint::handbuilt;
using namespace adjoint::ir;

namespace {

const ExprPtr n = var("n", kInt), s = var("s", kFloat), t = var("t", kFloat);
const ExprPtr x = var("x", kFloats), xBar = var("x_bar", kFloats), yBar = var("y_bar", kFloats);

// for (int c = 0; c < bound; ++c) body
StmtPtr loop(const std::string& c, ExprPtr bound, StmtList body) {
  ExprPtr counter = var(c, kInt);
  return forStmt(decl(c, kInt, number(0, kInt)), binary(Op::Lt, counter, bound),
                 assign(counter, Op::Add, number(1, kInt)), std::move(body));
}

// The first pass: g = y_bar[c] * s; x_bar[c] += g * x[c]; t += g; y_bar[c] = 0 (the seed, last
// read above).
StmtPtr firstPass(ExprPtr bound = n) {
  ExprPtr c = var("c", kInt), g = var("g", kFloat);
  return loop("c", bound,
              {decl("g", kFloat, mul(index(yBar, c), s)), assign(index(xBar, c), Op::Add, mul(g, index(x, c))),
               assign(t, Op::Add, g), assign(index(yBar, c), Op::Assign, number(0, kFloat))});
}

// The last pass: x_bar[d] += t.
StmtPtr lastPass(ExprPtr bound = n) {
  ExprPtr d = var("d", kInt);
  return loop("d", bound, {assign(index(xBar, d), Op::Add, t)});
}

Function vjpKernel(StmtList body) {
  body.insert(body.begin(), decl("t", kFloat, number(0, kFloat)));
  return kernel("k_vjp",
                {{"x", kFloats},
                 {"n", kInt},
                 {"s", kFloat},
                 {"x_bar", kFloats, Role::Adjoint, "x"},
                 {"y_bar", kFloats, Role::Adjoint, "y"}},
                std::move(body));
}

std::string joined(StmtList body) {
  Function f = vjpKernel(std::move(body));
  transforms::joinRowPasses(f, Module{});
  return print(f.body);
}

std::string unchanged(StmtList body) {
  Function f = vjpKernel(std::move(body));
  std::string before = print(f.body);
  transforms::joinRowPasses(f, Module{});
  return print(f.body) == before ? "unchanged" : print(f.body);
}

}  // namespace

TEST_CASE("the first pass's addition into x_bar is made in the last, recomputed there with its seed's zeroing") {
  std::string text = joined({firstPass(), lastPass()});
  size_t last = text.find("for (int d");
  REQUIRE(last != std::string::npos);
  CHECK(text.find("x_bar[c]") == std::string::npos);
  CHECK(text.find("y_bar[c] = 0") == std::string::npos);
  CHECK(text.find("t += g;") < last);  // what the first pass sums for the second stays there
  CHECK(text.find("const float g_2 = y_bar[d] * s;") > last);
  CHECK(text.find("x_bar[d] += g_2 * x[d] + t;") > last);
  CHECK(text.find("y_bar[d] = 0.0f;") > text.find("x_bar[d] +="));
  CHECK(text.find("one read-modify-write of each element") != std::string::npos);
}

TEST_CASE("a scalar the first pass reads and that changes before the last is kept as the first pass read it") {
  std::string text = joined({firstPass(), assign(s, Op::Mul, number(2, kFloat)), lastPass()});
  CHECK(text.find("const float s_2 = s;") < text.find("s *= 2.0f"));
  CHECK(text.find("const float g_2 = y_bar[d] * s_2;") != std::string::npos);
}

TEST_CASE("passes stay apart where joining them could change a value") {
  ExprPtr c = var("c", kInt);
  // other ranges
  CHECK(unchanged({firstPass(), lastPass(binary(Op::Add, n, number(1, kInt)))}) == "unchanged");
  // the range's bound changes in between
  CHECK(unchanged({firstPass(), assign(n, Op::Sub, number(1, kInt)), lastPass()}) == "unchanged");
  // x_bar is read: the order of the additions would show
  CHECK(unchanged({firstPass(), assign(t, Op::Add, index(xBar, number(0, kInt))), lastPass()}) == "unchanged");
  // the seed is read again after its zeroing
  CHECK(unchanged({firstPass(), assign(t, Op::Add, index(yBar, number(0, kInt))), lastPass()}) == "unchanged");
  // the addend reads a value the loop carries from one iteration to the next
  CHECK(unchanged({loop("c", n, {assign(index(xBar, c), Op::Add, t), assign(t, Op::Mul, s)}), lastPass()}) ==
        "unchanged");
  // the first pass may leave early
  StmtPtr leaving = firstPass();
  leaving->body.push_back(ifStmt(binary(Op::Gt, c, number(3, kInt)), {jump(StmtKind::Break)}));
  CHECK(unchanged({leaving, lastPass()}) == "unchanged");
}

TEST_CASE("an addend through a math call stays in its loop: the call computed again costs more than the join saves") {
  ExprPtr c = var("c", kInt), g = var("g", kFloat), v = var("v", kFloat);
  Module m;
  m.rules["std::exp"] = Rule{{"v"}, {call("std::exp", {v}, kFloat)}};
  StmtPtr first =
      loop("c", n,
           {decl("g", kFloat, call("std::exp", {mul(index(yBar, c), s)}, kFloat)), assign(index(xBar, c), Op::Add, g),
            assign(t, Op::Add, g), assign(index(yBar, c), Op::Assign, number(0, kFloat))});
  Function f = vjpKernel({first, lastPass()});
  transforms::joinRowPasses(f, m);
  CHECK(print(f.body).find("x_bar[c] += g;") != std::string::npos);
  // the same addend without the call joins
  Function plain = vjpKernel({firstPass(), lastPass()});
  transforms::joinRowPasses(plain, m);
  CHECK(print(plain.body).find("x_bar[c]") == std::string::npos);
}
