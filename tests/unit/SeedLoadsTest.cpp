// seed-loads on a hand-built vjp kernel: an adjoint element several statements read is loaded
// once, not across a barrier, and the store that zeroes it stays a store.
#include <doctest/doctest.h>

#include "HandBuiltIr.h"
#include "ad/ir/Printer.h"
#include "transforms/CommonCalls.h"

using namespace adjoint;
using namespace adjoint::handbuilt;
using namespace adjoint::ir;

namespace {

const ExprPtr i = var("i", kInt), x = var("x", kFloats), xBar = var("x_bar", kFloats), yBar = var("y_bar", kFloats);
const ExprPtr aBar = var("a_bar_sum", kFloat), bBar = var("b_bar_sum", kFloat);

// affine's reverse (y = a x + b): a_bar_sum += y_bar[i] * x[i]; x_bar[i] += y_bar[i] * 0.5f;
// [`between`]; b_bar_sum += y_bar[i]; y_bar[i] = 0.0f
std::string reverse(StmtList between = {}) {
  Function f = kernel("affine_vjp",
                      {{"x", kFloats}, {"x_bar", kFloats, Role::Adjoint, "x"}, {"y_bar", kFloats, Role::Adjoint, "y"}});
  ExprPtr seed = index(yBar, i);
  f.body = {decl("i", kInt, number(0, kInt)), decl("a_bar_sum", kFloat, number(0, kFloat)),
            decl("b_bar_sum", kFloat, number(0, kFloat)), assign(aBar, Op::Add, mul(seed, index(x, i))),
            assign(index(xBar, i), Op::Add, mul(seed, number(0.5, kFloat)))};
  f.body.insert(f.body.end(), between.begin(), between.end());
  f.body.push_back(assign(bBar, Op::Add, seed));
  f.body.push_back(assign(seed, Op::Assign, number(0, kFloat)));
  transforms::shareSeedLoads(f, Module{});
  return print(f.body);
}

size_t occurrences(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a seed read around a store into another adjoint is loaded once; its zeroing stays a store") {
  std::string text = reverse();
  CHECK(text.find("const float y_bar_i = y_bar[i];") < text.find("x_bar[i] +="));
  CHECK(occurrences(text, "y_bar[i]") == 2);  // the load and the zeroing
  CHECK(text.find("b_bar_sum += y_bar_i;") != std::string::npos);
  CHECK(text.find("y_bar[i] = 0.0f;") != std::string::npos);
}

TEST_CASE("not across a barrier: other threads may store into the adjoint there") {
  std::string text = reverse({eval(call("__syncthreads", {}, Type::of(Scalar::Void)))});
  CHECK(text.find("b_bar_sum += y_bar[i];") != std::string::npos);
}

TEST_CASE("not across a call given a pointer into the adjoint: it may store there") {
  ExprPtr j = var("j", kInt);
  std::string text =
      reverse({eval(call("atomicAdd", {unary(Op::AddressOf, index(yBar, j)), number(1, kFloat)}, kFloat))});
  CHECK(text.find("b_bar_sum += y_bar[i];") != std::string::npos);
}
