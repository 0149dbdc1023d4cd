// Which run of a statement a thread is in (ad/analysis/RunSlots.h): the slots a sort-and-segment
// sum records its pairs in, distinct over the runs of a launch, and the loops whose runs cannot be
// counted before the launch.
#include <doctest/doctest.h>

#include "ad/analysis/RunSlots.h"
#include "ad/ir/Printer.h"

using namespace adjoint;
using namespace adjoint::ir;

namespace {

const Type kInt = Type::integer();
const Type kUnsigned = Type::integer("unsigned int", true);

// for (int c = first; c < bound; c += step) { body }
StmtPtr upLoop(const std::string& c, ExprPtr first, ExprPtr bound, ExprPtr step, StmtList body) {
  ExprPtr counter = var(c, kInt);
  return forStmt(decl(c, kInt, std::move(first)), binary(Op::Lt, counter, std::move(bound)),
                 assign(counter, Op::Add, std::move(step)), std::move(body));
}

StmtPtr addition() {
  return assign(index(var("x_bar", kInt.pointerTo(false)), var("i", kInt)), Op::Add, number(1, kInt));
}

Function kernel(StmtList body) {
  Function f;
  f.name = "k";
  f.kernel = true;
  f.returnType = Type::of(Scalar::Void);
  f.params = {{"x", Type::of(Scalar::Float).pointerTo(false)}, {"n", kInt}, {"K", kInt}};
  f.body = std::move(body);
  return f;
}

std::optional<analysis::RunSlot> slotOf(const Function& f, const Stmt& s) {
  analysis::ThreadIndexing threads(f);
  return analysis::RunSlots(f, threads).of(s);
}

}  // namespace

TEST_CASE("a statement a thread runs once is in the thread's slot") {
  StmtPtr add = addition();
  Function f = kernel({ifStmt(binary(Op::Lt, var("i", kInt), var("n", kInt)), {add})});
  auto run = slotOf(f, *add);
  REQUIRE(run);
  CHECK(print(*run->slot) == "static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x");
  CHECK(print(*run->perThread) == "1");
}

TEST_CASE("counted loops with bounds of literals or parameters number the runs; the threads of a run are neighbours") {
  StmtPtr add = addition();
  StmtPtr inner = upLoop("j", number(0, kInt), var("K", kInt), number(1, kInt), {add});
  Function f = kernel({upLoop("k", number(1, kInt), number(5, kInt), number(1, kInt), {inner})});
  auto run = slotOf(f, *add);
  REQUIRE(run);
  CHECK(print(*run->perThread) == "4 * static_cast<long long>(K)");
  CHECK(print(*run->slot) ==
        "((static_cast<long long>(k) - 1) * static_cast<long long>(K) + static_cast<long long>(j)) * "
        "(static_cast<long long>(gridDim.x) * blockDim.x) + (static_cast<long long>(blockIdx.x) * blockDim.x + "
        "threadIdx.x)");
}

TEST_CASE("a lane's strided loop is numbered by its counter's range; a grid-stride loop is not counted") {
  StmtPtr add = addition(), other = addition();
  ExprPtr lane = binary(Op::Rem, var("threadIdx.x", kUnsigned), number(32, kUnsigned));
  Function f = kernel(
      {decl("lane", kInt, cast(kInt, lane)), upLoop("c", var("lane", kInt), var("n", kInt), number(32, kInt), {add})});
  auto run = slotOf(f, *add);
  REQUIRE(run);
  CHECK(print(*run->perThread) == "(static_cast<long long>(n) + 31) / 32");
  ExprPtr gridStride = binary(Op::Mul, var("blockDim.x", kUnsigned), var("gridDim.x", kUnsigned));
  ExprPtr first = binary(Op::Add, binary(Op::Mul, var("blockIdx.x", kUnsigned), var("blockDim.x", kUnsigned)),
                         var("threadIdx.x", kUnsigned));
  Function g = kernel({upLoop("i", cast(kInt, first), var("n", kInt), cast(kInt, gridStride), {other})});
  CHECK_FALSE(slotOf(g, *other));
}
