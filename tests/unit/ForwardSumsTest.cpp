// forward-sums on hand-built derivatives: a forward loop over a row and its reverse, which only
// sums a fixed factor times what the forward loop computes.
#include <doctest/doctest.h>

#include "HandBuiltIr.h"
#include "ad/ir/Printer.h"
#include "transforms/ForwardSums.h"

using namespace adjoint;
using namespace adjoint::handbuilt;
using namespace adjoint::ir;

namespace {

const ExprPtr n = var("n", kInt), s = var("s", kFloat), m = var("m", kFloat), x = var("x", kFloats);
const ExprPtr squares = var("squares", kFloat), mBar = var("m_bar", kFloat), dBar = var("d_bar", kFloat);
const ExprPtr c = var("c", kInt), d = var("d", kFloat);
const SourceLoc kLine5{5, 3};

// line 5: for (int c = 0; c < n; ++c) { float d = x[c] - m; squares += d * d; }
StmtPtr forwardLoop() {
  return at(forStmt(decl("c", kInt, number(0, kInt)), binary(Op::Lt, c, n), assign(c, Op::Add, number(1, kInt)),
                    {decl("d", kFloat, sub(index(x, c), m)), assign(squares, Op::Add, mul(d, d))}),
            kLine5);
}

// Its reverse: d recomputed, d_bar = s * (2 * d), m_bar -= d_bar, or the body given.
StmtPtr reverseLoop(StmtList body = {}) {
  if (body.empty())
    body = {decl("d", kFloat, sub(index(x, c), m)), assign(dBar, Op::Assign, mul(s, mul(number(2, kFloat), d))),
            assign(mBar, Op::Sub, dBar)};
  return at(forStmt(decl("c", kInt, sub(n, number(1, kInt))), binary(Op::Ge, c, number(0, kInt)),
                    assign(c, Op::Sub, number(1, kInt)), std::move(body)),
            kLine5);
}

std::string derivative(StmtList between, StmtList after = {}, StmtPtr reverse = reverseLoop()) {
  Function f = kernel("k_vjp", {{"x", kFloats}, {"n", kInt}, {"s", kFloat}});
  f.body = {decl("m", kFloat, number(0.5, kFloat)), decl("squares", kFloat, number(0, kFloat)),
            decl("m_bar", kFloat, number(0, kFloat)), decl("d_bar", kFloat, number(0, kFloat)), forwardLoop()};
  f.body.insert(f.body.end(), between.begin(), between.end());
  f.body.push_back(reverse);
  f.body.insert(f.body.end(), after.begin(), after.end());
  transforms::sumInForwardSweep(f, Module{});
  return print(f.body);
}

}  // namespace

TEST_CASE("the reverse loop's sum of s * (2 * d) is s * 2 times the sum of d the forward loop makes") {
  std::string text = derivative({});
  CHECK(text.find("float d_sum = 0.0f;") < text.find("for (int c = 0"));
  CHECK(text.find("d_sum += d;") != std::string::npos);
  CHECK(text.find("m_bar -= s * 2.0f * d_sum;") != std::string::npos);
  CHECK(text.find("for (int c = n - 1") == std::string::npos);
  CHECK(text.find("if (n - 1 >= 0)") != std::string::npos);  // added where the loop would run
}

TEST_CASE("a value the sum reads that changes between the loops keeps the reverse loop") {
  std::string text = derivative({assign(m, Op::Mul, number(2, kFloat))});
  CHECK(text.find("d_sum") == std::string::npos);
  CHECK(text.find("for (int c = n - 1") != std::string::npos);
}

TEST_CASE("a temporary read after the loop keeps the reverse loop") {
  std::string text = derivative({}, {assign(mBar, Op::Add, dBar)});
  CHECK(text.find("for (int c = n - 1") != std::string::npos);
}

TEST_CASE("a term through an element the forward loop does not load keeps the reverse loop") {
  ExprPtr yBar = var("y_bar", kFloats);
  std::string text = derivative(
      {}, {}, reverseLoop({decl("d", kFloat, sub(index(x, c), m)), assign(mBar, Op::Sub, mul(index(yBar, c), d))}));
  CHECK(text.find("for (int c = n - 1") == std::string::npos);  // y_bar is read, not written: summed
  std::string written =
      derivative({assign(index(yBar, number(0, kInt)), Op::Assign, number(1, kFloat))}, {},
                 reverseLoop({decl("d", kFloat, sub(index(x, c), m)), assign(mBar, Op::Sub, mul(index(yBar, c), d))}));
  CHECK(written.find("for (int c = n - 1") != std::string::npos);  // written in between: stays
}
