// restrict-pointers on hand-built vjp kernels: the forward's buffers the kernel only reads are
// marked __restrict__; none where the kernel may write one of them.
#include <doctest/doctest.h>

#include "ad/ir/Printer.h"
#include "transforms/RestrictPointers.h"

using namespace adjoint;
using namespace adjoint::ir;

namespace {

const Type kFloat = Type::of(Scalar::Float);
const Type kInt = Type::integer();
const Type kFloats = kFloat.pointerTo(false);
const Type kConstFloats = kFloat.pointerTo(true);

const ExprPtr i = var("i", kInt), x = var("x", kConstFloats), y = var("y", kFloats), xBar = var("x_bar", kFloats);
const ExprPtr yBar = var("y_bar", kFloats);

// A vjp kernel k_vjp(const float* x, float* y, float* x_bar, float* y_bar) with `body`.
std::string signature(StmtList body) {
  Function f;
  f.name = "k_vjp";
  f.kernel = true;
  f.host = false;
  f.returnType = Type::of(Scalar::Void);
  f.params = {{"x", kConstFloats},
              {"y", kFloats},
              {"x_bar", kFloats, Role::Adjoint, "x"},
              {"y_bar", kFloats, Role::Adjoint, "y"}};
  f.body = {decl("i", kInt, number(0, kInt))};
  f.body.insert(f.body.end(), body.begin(), body.end());
  transforms::restrictReadOnlyPointers(f);
  return printSignature(f, true);
}

// x_bar[i] += y_bar[i] * e
StmtPtr accumulate(ExprPtr e) { return assign(index(xBar, i), Op::Add, binary(Op::Mul, index(yBar, i), e)); }

}  // namespace

TEST_CASE("buffers the vjp only loads from are __restrict__; the adjoints are not") {
  std::string s = signature({accumulate(index(y, i)), accumulate(index(x, i))});
  CHECK(s.find("const float* __restrict__ x,") != std::string::npos);
  CHECK(s.find("float* __restrict__ y,") != std::string::npos);
  CHECK(s.find("float* x_bar, float* y_bar") != std::string::npos);
}

TEST_CASE("loads through a pointer moved along its buffer, or through a local pointer made from it, keep it") {
  ExprPtr row = var("row", kConstFloats);
  std::string s = signature({assign(x, Op::Add, number(4, kInt)), decl("row", kConstFloats, binary(Op::Add, x, i)),
                             accumulate(index(row, i)), accumulate(index(y, i))});
  CHECK(s.find("const float* __restrict__ x,") != std::string::npos);
}

TEST_CASE("a store into one of the forward's buffers, or a pointer that may reach one, marks none") {
  auto none = [](const std::string& s) { return s.find("__restrict__") == std::string::npos; };
  CHECK(none(signature({accumulate(index(x, i)), assign(index(y, i), Op::Assign, index(x, i))})));
  ExprPtr out = var("out", kFloats);
  CHECK(none(signature({decl("out", kFloats, binary(Op::Add, y, i)), assign(index(out, i), Op::Assign, index(x, i))})));
  Type none_ = Type::of(Scalar::Void);
  CHECK(none(signature({eval(call("atomicAdd", {unary(Op::AddressOf, index(y, i)), number(1, kFloat)}, kFloat))})));
  CHECK(none(signature({eval(call("store", {y, number(1, kFloat)}, none_))})));
}
