#include <doctest/doctest.h>

#include "HandBuiltIr.h"
#include "ad/analysis/Extents.h"
#include "ad/ir/Printer.h"

using namespace adjoint::ir;
using namespace adjoint::handbuilt;
using namespace adjoint::analysis;

namespace {

ExprPtr v(const char* name) { return var(name, kInt); }
ExprPtr builtin(const char* name) { return var(name, kUnsigned); }
ExprPtr at(const char* array, ExprPtr i) { return index(var(array, kFloat.pointerTo(false)), std::move(i)); }
ExprPtr threadIndex() { return add(mul(builtin("blockIdx.x"), builtin("blockDim.x")), builtin("threadIdx.x")); }

Function kernel(StmtList body) {
  Function k;
  k.name = "k";
  k.kernel = true;
  k.params = {{"x", kFloat.pointerTo(true)}, {"y", kFloat.pointerTo(false)}, {"n", kInt}, {"C", kInt}};
  k.body = std::move(body);
  return k;
}

std::string extentOf(const Function& k, const char* array) {
  AccessExtent e = accessExtent(k, array);
  return (e.extent ? print(*e.extent) : "none") + (e.unboundedReads ? " (some reads unbounded)" : "");
}
}  // namespace

TEST_CASE("a guarded thread index: the smaller of the grid's threads and the guard") {
  Function k = kernel({decl("i", kInt, threadIndex()),
                       ifStmt(binary(Op::Lt, v("i"), v("n")), {assign(at("y", v("i")), Op::Assign, at("x", v("i")))})});
  CHECK(extentOf(k, "y") == "std::min<long long>(gridDim.x * blockDim.x, n)");
  CHECK(extentOf(k, "x") == extentOf(k, "y"));
}

TEST_CASE("a select and && bound what they evaluate under their condition") {
  ExprPtr i = v("i"), guard = binary(Op::Lt, v("i"), v("n"));
  Function k = kernel(
      {decl("i", kInt, threadIndex()), decl("s", kFloat, select(guard, at("x", i), number(0, kFloat))),
       decl("t", Type::of(Scalar::Bool), binary(Op::And, guard, binary(Op::Gt, at("y", i), number(0, kFloat))))});
  CHECK(extentOf(k, "x") == "std::min<long long>(gridDim.x * blockDim.x, n)");
  CHECK(extentOf(k, "y") == "std::min<long long>(gridDim.x * blockDim.x, n)");
}

TEST_CASE("an early return bounds the rest of the kernel") {
  Function k = kernel({decl("i", kInt, threadIndex()), ifStmt(binary(Op::Ge, v("i"), v("n")), {ret(nullptr)}),
                       assign(at("y", v("i")), Op::Assign, number(0, kFloat))});
  CHECK(extentOf(k, "y") == "std::min<long long>(gridDim.x * blockDim.x, n)");
}

TEST_CASE("rows of C elements: a counted loop bounds the column") {
  ExprPtr element = add(mul(v("row"), v("C")), v("c"));
  Function k = kernel(
      {decl("row", kInt, threadIndex()), ifStmt(binary(Op::Ge, v("row"), v("n")), {ret(nullptr)}),
       forStmt(decl("c", kInt, number(0, kInt)), binary(Op::Lt, v("c"), v("C")),
               assign(v("c"), Op::Add, number(1, kInt)), {assign(at("y", element), Op::Assign, at("x", element))})});
  CHECK(extentOf(k, "y") == "std::min<long long>(gridDim.x * blockDim.x - 1, n - 1) * C + C");
}

TEST_CASE("a grid-stride loop is bounded by its condition") {
  Function k = kernel({forStmt(decl("i", kInt, threadIndex()), binary(Op::Lt, v("i"), v("n")),
                               assign(v("i"), Op::Add, mul(builtin("blockDim.x"), builtin("gridDim.x"))),
                               {assign(at("y", v("i")), Op::Assign, number(0, kFloat))})});
  CHECK(extentOf(k, "y") == "n");
}

TEST_CASE("a constant index, and indices with no bound") {
  CHECK(extentOf(kernel({assign(at("y", number(0, kInt)), Op::Add, number(1, kFloat))}), "y") == "1");
  // An index read from memory, and one unguarded local that a loop keeps changing.
  Function fromMemory = kernel({assign(at("y", cast(kInt, at("x", number(0, kInt)))), Op::Assign, number(0, kFloat))});
  CHECK(extentOf(fromMemory, "y") == "none");
  // A read at an index from memory leaves the bounded accesses' extent, and says so.
  Function gather =
      kernel({assign(at("y", number(3, kInt)), Op::Assign, at("y", cast(kInt, at("x", number(0, kInt)))))});
  CHECK(extentOf(gather, "y") == "4 (some reads unbounded)");
  Function changing =
      kernel({decl("j", kInt, number(0, kInt)),
              whileStmt(binary(Op::Lt, v("j"), v("n")), {assign(at("y", v("j")), Op::Assign, number(0, kFloat)),
                                                         assign(v("j"), Op::Add, number(2, kInt))})});
  CHECK(extentOf(changing, "y") == "none");
}

TEST_CASE("an array passed on to a call is not followed") {
  Function k = kernel({eval(call("g", {var("y", kFloat.pointerTo(false))}, Type::of(Scalar::Void)))});
  CHECK(extentOf(k, "y") == "none");
}
