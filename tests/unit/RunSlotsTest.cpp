// Which run of a statement a thread is in (ad/analysis/RunSlots.h): the slots a sort-and-segment
// sum records its pairs in, distinct over the runs of a launch, and the loops whose runs cannot be
// counted before the launch.
#include <doctest/doctest.h>

#include "HandBuiltIr.h"
#include "ad/analysis/RunSlots.h"
#include "ad/ir/Printer.h"

using namespace adjoint;
using namespace adjoint::handbuilt;
using namespace adjoint::ir;

namespace {

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
  return handbuilt::kernel("k", {{"x", kFloats}, {"n", kInt}, {"K", kInt}}, std::move(body));
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

TEST_CASE("strided loops from the lane, the thread or the grid's thread are numbered by their counters' range") {
  auto counted = [](ExprPtr first, ExprPtr step) {
    StmtPtr add = addition();
    Function f =
        kernel({decl("lane", kInt, cast(kInt, binary(Op::Rem, var("threadIdx.x", kUnsigned), number(32, kUnsigned)))),
                upLoop("c", std::move(first), var("n", kInt), std::move(step), {add})});
    auto run = slotOf(f, *add);
    return run ? print(*run->perThread) + " at " + print(*run->slot) : std::string("not counted");
  };
  CHECK(counted(var("lane", kInt), number(32, kInt)) ==
        "(static_cast<long long>(n) + 31) / 32 at static_cast<long long>(c) / 32 * (static_cast<long long>(gridDim.x) "
        "* blockDim.x) + (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x)");
  ExprPtr blockDim = var("blockDim.x", kUnsigned);
  CHECK(counted(cast(kInt, var("threadIdx.x", kUnsigned)), blockDim)
            .find("(static_cast<long long>(n) + static_cast<long long>(blockDim.x) - 1) / "
                  "static_cast<long long>(blockDim.x) at") == 0);
  ExprPtr gridStride = binary(Op::Mul, blockDim, var("gridDim.x", kUnsigned));
  ExprPtr gid = binary(Op::Add, binary(Op::Mul, var("blockIdx.x", kUnsigned), blockDim), var("threadIdx.x", kUnsigned));
  CHECK(counted(cast(kInt, gid), gridStride)
            .find("(static_cast<long long>(n) + static_cast<long long>(blockDim.x * gridDim.x) - 1) / "
                  "static_cast<long long>(blockDim.x * gridDim.x) at static_cast<long long>(c) / ") == 0);
  // From a value read from memory, the counter's range is not known.
  CHECK(counted(index(var("x", Type::of(Scalar::Float).pointerTo(false)), number(0, kInt)), number(1, kInt)) ==
        "not counted");
}
