// The kernel passes on hand-built IR: how values spread over threads, how adjoints are
// accumulated, halving loops, running blocks in turn.
#include <doctest/doctest.h>

#include "HandBuiltIr.h"
#include "ad/analysis/Loops.h"
#include "ad/analysis/ThreadIndex.h"
#include "ad/ir/Diagnostic.h"
#include "ad/ir/Printer.h"
#include "codegen/Launcher.h"
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
using namespace adjoint::handbuilt;
using namespace adjoint::ir;
using analysis::Spread;

namespace {

ExprPtr builtin(const char* name) { return var(name, kUnsigned); }

// int i = blockIdx.x * blockDim.x + threadIdx.x;
StmtPtr globalIndex(const char* name) {
  return decl(name, kInt,
              cast(kInt, binary(Op::Add, binary(Op::Mul, builtin("blockIdx.x"), builtin("blockDim.x")),
                                builtin("threadIdx.x"))));
}

Function kernel(StmtList body) {
  return handbuilt::kernel(
      "k",
      {{"x", kFloats}, {"n", kInt}, {"x_bar", kFloats, Role::Adjoint, "x"}, {"a_bar", kFloats, Role::Adjoint, "a"}},
      std::move(body));
}

}  // namespace

TEST_CASE("the global thread index and its shifts are injective over the grid; threadIdx.x only over a block") {
  ExprPtr i = var("i", kInt), n = var("n", kInt);
  Function f = kernel(
      {globalIndex("i"), decl("j", kInt, binary(Op::Add, i, n)), decl("t", kInt, cast(kInt, builtin("threadIdx.x")))});
  analysis::ThreadIndexing threads(f);
  CHECK(threads.spread(i) == Spread::GridInjective);
  CHECK(threads.spread(var("j", kInt)) == Spread::GridInjective);
  CHECK(threads.spread(binary(Op::Mul, i, number(2, kInt))) == Spread::GridInjective);
  CHECK(threads.spread(var("t", kInt)) == Spread::BlockInjective);
  CHECK(threads.spread(binary(Op::Mul, i, i)) == Spread::Varying);
  CHECK(threads.spread(n) == Spread::Uniform);
  CHECK(threads.spread(number(0, kInt)) == Spread::Uniform);
}

TEST_CASE("blockIdx.x * BLOCK + threadIdx.x for a literal BLOCK is the thread's index in blocks of at most BLOCK") {
  ExprPtr i = var("i", kInt), xbar = var("x_bar", kFloats);
  auto indexed = [&](ExprPtr width) {
    return decl("i", kInt,
                cast(kInt, binary(Op::Add, binary(Op::Mul, builtin("blockIdx.x"), width), builtin("threadIdx.x"))));
  };
  Function f = kernel({indexed(number(128, kUnsigned)), assign(index(xbar, i), Op::Add, number(2, kFloat))});
  analysis::ThreadIndexing threads(f);
  CHECK(threads.spread(i) == Spread::GridInjective);
  CHECK(threads.indexBlocks().maxThreads == 128);
  transforms::parallelizeAdjoints(f, false);
  CHECK(print(f.body).find("atomicAdd") == std::string::npos);
  CHECK(codegen::launcher(f).find("if (block.x > 128) return cudaErrorInvalidValue;") != std::string::npos);
  // A width the threads do not share is no thread index.
  Function g = kernel({indexed(var("n", kInt))});
  CHECK(analysis::ThreadIndexing(g).spread(i) == Spread::Varying);
}

TEST_CASE("a grid-stride loop's counter is injective from the global index shifted, not scaled") {
  ExprPtr i = var("i", kInt), n = var("n", kInt), k = var("k", kInt);
  ExprPtr stride = binary(Op::Mul, builtin("blockDim.x"), builtin("gridDim.x"));
  // int i = <global index>; int j = start; for (int k = j; k < n; k += blockDim.x * gridDim.x) {}
  auto counter = [&](ExprPtr start) {
    Function f = kernel(
        {globalIndex("i"), decl("j", kInt, start),
         forStmt(decl("k", kInt, var("j", kInt)), binary(Op::Lt, k, n), assign(k, Op::Add, cast(kInt, stride)), {})});
    return analysis::ThreadIndexing(f).spread(k);
  };
  CHECK(counter(i) == Spread::GridInjective);
  CHECK(counter(binary(Op::Add, i, n)) == Spread::GridInjective);
  // 2 * i is injective itself, but thread i's second iteration meets thread i + stride / 2's first.
  CHECK(counter(binary(Op::Mul, number(2, kInt), i)) == Spread::Varying);
}

TEST_CASE("reading threadIdx.y gives up injectivity: the launch may not be one-dimensional") {
  Function f = kernel({globalIndex("i"), decl("r", kInt, cast(kInt, builtin("threadIdx.y")))});
  analysis::ThreadIndexing threads(f);
  CHECK_FALSE(threads.oneDimensional());
  CHECK(threads.spread(var("i", kInt)) == Spread::Varying);
}

TEST_CASE("adjoints are added plainly, summed per block, or atomically, and the choice is commented") {
  ExprPtr i = var("i", kInt), xbar = var("x_bar", kFloats), abar = var("a_bar", kFloats), v = var("v", kFloat);
  Function f =
      kernel({globalIndex("i"), decl("v", kFloat, number(1, kFloat)), assign(index(xbar, i), Op::Add, v),  // injective
              assign(index(abar, number(0, kInt)), Op::Add, v),                                            // uniform
              assign(index(xbar, binary(Op::Add, i, number(1, kInt))), Op::Add, v)});  // x_bar used at two indices
  transforms::parallelizeAdjoints(f, false);
  std::string text = print(f.body);
  CHECK(text.find("a_bar_sum += v;") != std::string::npos);
  CHECK(text.find("atomicAdd(&x_bar[i], v)") != std::string::npos);  // i and i + 1 meet across threads
  CHECK(text.find("atomicAdd(&x_bar[i + 1], v)") != std::string::npos);
  CHECK(text.find("adjoint::sum_over_threads_into(&a_bar[0], a_bar_sum, block_sums, 0u)") != std::string::npos);
  CHECK(text.find("if (adjoint::last_block_to_finish(block_sums))") != std::string::npos);
  CHECK(text.find("adjoint::add_block_sums(&a_bar[0], block_sums, 0u)") != std::string::npos);
  CHECK(text.find("a[0]: the same address in every thread") != std::string::npos);
  CHECK(f.blockSumSlots == 1);
  CHECK(f.params.back().name == "block_sums");
  // A reducing kernel runs blocks in turn; the sums' declarations and their finish stay outside.
  REQUIRE(transforms::runBlocksInTurn(f));
  CHECK(f.params.back().name == "virtual_blocks");
  CHECK(f.body.front()->kind == StmtKind::Decl);
  CHECK(f.body.back()->kind == StmtKind::If);
  std::string inTurn = print(f.body);
  CHECK(inTurn.find("virtual_block < virtual_blocks") < inTurn.find("atomicAdd(&x_bar[i], v)"));
  CHECK(inTurn.find("atomicAdd(&x_bar[i + 1], v)") < inTurn.find("adjoint::sum_over_threads_into"));
}

TEST_CASE("one index per adjoint array, injective: a plain +=") {
  ExprPtr i = var("i", kInt), xbar = var("x_bar", kFloats);
  Function f = kernel({globalIndex("i"), assign(index(xbar, i), Op::Add, number(2, kFloat)),
                       assign(index(xbar, i), Op::Mul, number(3, kFloat))});
  transforms::parallelizeAdjoints(f, false);
  CHECK(print(f.body).find("// x[i]: index injective over threads: plain +=\nx_bar[i] += 2.0f;") != std::string::npos);
  CHECK(f.needsOneDimensionalLaunch);
}

TEST_CASE("an adjoint array also passed to a call is added to atomically: the call may add to any element") {
  ExprPtr i = var("i", kInt), xbar = var("x_bar", kFloats);
  for (ExprPtr passed : {xbar, binary(Op::Add, xbar, i)}) {
    Function f = kernel({globalIndex("i"), assign(index(xbar, i), Op::Add, number(2, kFloat)),
                         eval(call("neighbor_pullback", {var("x", kFloats), i, passed}, Type::of(Scalar::Void)))});
    transforms::parallelizeAdjoints(f, false);
    CHECK(print(f.body).find("// x[i]: x_bar also goes to a call, which may add here from another thread: atomicAdd\n"
                             "atomicAdd(&x_bar[i], 2.0f);") != std::string::npos);
  }
}

TEST_CASE("the lanes of a vector, c * i + k for 0 <= k < c, are a thread's own; a lane past c is not") {
  ExprPtr i = var("i", kInt), xbar = var("x_bar", kFloats);
  auto lane = [&](int c, int k) {
    ExprPtr at = binary(Op::Mul, number(c, kInt), i);
    return index(xbar, k ? binary(Op::Add, at, number(k, kInt)) : at);
  };
  auto accumulated = [&](std::vector<std::pair<int, int>> lanes) {
    StmtList body = {globalIndex("i")};
    for (auto [c, k] : lanes) body.push_back(assign(lane(c, k), Op::Add, number(2, kFloat)));
    Function f = kernel(body);
    transforms::parallelizeAdjoints(f, false);
    return print(f.body);
  };
  std::string float4 = accumulated({{4, 0}, {4, 1}, {4, 2}, {4, 3}});
  CHECK(float4.find("atomicAdd") == std::string::npos);
  CHECK(float4.find("// x[4 * i + 3]: index injective over threads: plain +=") != std::string::npos);
  CHECK(accumulated({{4, 0}, {4, 4}}).find("atomicAdd(&x_bar[4 * i + 4], 2.0f)") != std::string::npos);
  CHECK(accumulated({{2, 1}, {4, 1}}).find("atomicAdd") != std::string::npos);  // different strides
  // i + 4 * n and i + 4 * n + 1: the stride multiplies a value every thread shares.
  ExprPtr n = var("n", kInt), shifted = binary(Op::Add, i, binary(Op::Mul, number(4, kInt), n));
  Function f = kernel({globalIndex("i"), assign(index(xbar, shifted), Op::Add, number(2, kFloat)),
                       assign(index(xbar, binary(Op::Add, shifted, number(1, kInt))), Op::Add, number(2, kFloat))});
  transforms::parallelizeAdjoints(f, false);
  CHECK(print(f.body).find("atomicAdd(&x_bar[i + 4 * n + 1], 2.0f)") != std::string::npos);
}

TEST_CASE("a pack's offset, set once under the guard around its uses, is read as the value it was set to") {
  // long off = 0; int i = gid; if (i < n) off = 4 * i; ... if (i < n) { x_bar[off + 1] += 2; x_bar[off] += 2; }
  ExprPtr i = var("i", kInt), n = var("n", kInt), off = var("off", Type::integer("long"));
  ExprPtr xbar = var("x_bar", kFloats), guard = binary(Op::Lt, i, n);
  auto lanes = [&] {
    return StmtList{assign(index(xbar, binary(Op::Add, off, number(1, kInt))), Op::Add, number(2, kFloat)),
                    assign(index(xbar, off), Op::Add, number(2, kFloat))};
  };
  auto accumulated = [&](StmtList uses) {
    Function f = kernel({decl("off", Type::integer("long"), number(0, Type::integer("long"))), globalIndex("i"),
                         ifStmt(guard, {assign(off, Op::Assign, binary(Op::Mul, number(4, kInt), i))})});
    for (StmtPtr& s : uses) f.body.push_back(std::move(s));
    transforms::parallelizeAdjoints(f, false);
    return print(f.body);
  };
  std::string guarded = accumulated({ifStmt(guard, lanes())});
  CHECK(guarded.find("atomicAdd") == std::string::npos);
  CHECK(guarded.find("// x[off + 1]: index injective over threads: plain +=") != std::string::npos);
  // Outside the guard, off may still hold its 0 in every thread past n.
  CHECK(accumulated(lanes()).find("atomicAdd(&x_bar[off + 1], 2.0f)") != std::string::npos);
}

TEST_CASE("--deterministic sorts an adjoint threads may share into segments, unless a loop's runs are not known") {
  ExprPtr xbar = var("x_bar", kFloats);
  ExprPtr j = index(var("idx", Type::integer().pointerTo(true)), cast(kInt, builtin("threadIdx.x")));
  Function f = kernel({assign(index(xbar, j), Op::Add, number(1, kFloat))});
  transforms::parallelizeAdjoints(f, true);
  CHECK(print(f.body).find("adjoint::add_to_segment(x_bar_keys, x_bar_values, static_cast<long long>(blockIdx.x) * "
                           "blockDim.x + threadIdx.x, x_bar, "
                           "static_cast<long long>(idx[static_cast<int>(threadIdx.x)]), 1.0f);") != std::string::npos);
  REQUIRE(f.segments.size() == 1);
  CHECK(f.segments[0].target == "x_bar");
  CHECK(codegen::launcher(f).find("adjoint::add_segments(x_bar, x_bar_keys, x_bar_values, x_bar_slots, stream)") !=
        std::string::npos);
  // A while loop runs a number of times no launcher knows: no slots to give it.
  Function g = kernel({whileStmt(binary(Op::Lt, var("n", kInt), number(4, kInt)),
                                 {assign(index(xbar, j), Op::Add, number(1, kFloat))})});
  CHECK_THROWS_AS(transforms::parallelizeAdjoints(g, true), Diagnostic);
}

TEST_CASE("--deterministic keeps a row that data picks per row of the thread's element in that element's slot") {
  // int i = gid; x_bar[ids[pick] * n + i % n] += a_bar[i], pick the thread's row i / n or its element i
  ExprPtr i = var("i", kInt), n = var("n", kInt), xbar = var("x_bar", kFloats);
  auto scatter = [&](ExprPtr pick) {
    Function f = handbuilt::kernel("k",
                                   {{"x", kFloats},
                                    {"ids", Type::integer().pointerTo(true)},
                                    {"n", kInt},
                                    {"x_bar", kFloats, Role::Adjoint, "x"},
                                    {"a_bar", kFloats, Role::Adjoint, "a"}},
                                   {});
    ExprPtr row = binary(Op::Mul, index(var("ids", Type::integer().pointerTo(true)), pick), n);
    f.body = {globalIndex("i"), assign(index(xbar, binary(Op::Add, row, binary(Op::Rem, i, n))), Op::Add,
                                       index(var("a_bar", kFloats), i))};
    transforms::parallelizeAdjoints(f, true);
    return f;
  };
  Function rows = scatter(binary(Op::Div, i, n));
  CHECK(print(rows.body).find("adjoint::add_to_row_segment(x_bar_row_keys, x_bar_keys, x_bar_values, x_bar_rows, "
                              "x_bar, static_cast<long long>(i), static_cast<long long>(ids[i / n] * n + i % n), "
                              "static_cast<long long>(n), a_bar[i]);") != std::string::npos);
  REQUIRE(rows.segments.size() == 1);
  CHECK(codegen::launcher(rows).find("adjoint::add_row_segments(x_bar, x_bar_row_keys, x_bar_keys, x_bar_values, "
                                     "x_bar_rows, x_bar_width, stream)") != std::string::npos);
  // A row picked per element: the elements of the thread's row pick different rows.
  CHECK(print(scatter(i).body).find("adjoint::add_to_segment(") != std::string::npos);
}

TEST_CASE("a halving loop becomes a counted loop that recomputes its counter") {
  Function f = kernel({});
  ExprPtr s = var("s", kInt);
  f.body = {forStmt(decl("s", kInt, number(16, kInt)), binary(Op::Gt, s, number(0, kInt)),
                    assign(s, Op::Shr, number(1, kInt)), {eval(call("__syncthreads", {}, Type::of(Scalar::Void)))})};
  transforms::countHalvingLoops(f);
  CHECK(print(f.body) ==
        "for (int s_halving = 0; s_halving < adjoint::halvings(16); ++s_halving) {\n"
        "  // halving loop, counted: s halves each iteration\n"
        "  int s = 16 >> s_halving;\n"
        "  __syncthreads();\n"
        "}\n");
}

TEST_CASE("a seed's zeroing store waits until the end of its block, unless something after it needs it there") {
  ExprPtr i = var("i", kInt), xbar = var("x_bar", kFloats), abar = var("a_bar", kFloats), v = var("v", kFloat);
  auto zero = [&] { return assign(index(abar, i), Op::Assign, number(0, kFloat)); };
  auto add = [&] { return assign(index(xbar, i), Op::Add, v); };
  Function moved = kernel({globalIndex("i"), decl("v", kFloat, index(abar, i)), zero(), add()});
  transforms::sinkSeedZeroing(moved);
  std::string text = print(moved.body);
  CHECK(text.find("x_bar[i] += v;") < text.find("a_bar[i] = 0"));
  CHECK(text.find("zeroed after the loads") != std::string::npos);

  Function readAgain = kernel({globalIndex("i"), zero(), decl("v", kFloat, index(abar, i)), add()});
  Function barrier = kernel({globalIndex("i"), zero(), eval(call("__syncthreads", {}, Type::of(Scalar::Void))), add()});
  Function indexChanges =
      kernel({globalIndex("i"), decl("v", kFloat, number(1, kFloat)), zero(), assign(i, Op::Add, number(1, kInt))});
  Function leaves =
      kernel({globalIndex("i"), zero(), ifStmt(binary(Op::Gt, i, var("n", kInt)), {ret(nullptr)}), add()});
  for (Function* f : {&readAgain, &barrier, &indexChanges, &leaves}) {
    std::string before = print(f->body);
    transforms::sinkSeedZeroing(*f);
    CHECK(print(f->body) == before);
  }
}

TEST_CASE("a seed's zeroing at the end of an if waits, in an if of its own, past the statements after it") {
  ExprPtr i = var("i", kInt), n = var("n", kInt), xbar = var("x_bar", kFloats), abar = var("a_bar", kFloats);
  ExprPtr guard = binary(Op::Lt, i, n);
  auto body = [&](StmtPtr after) {
    return kernel({globalIndex("i"), decl("v", kFloat, number(0, kFloat)),
                   ifStmt(guard, {assign(var("v", kFloat), Op::Assign, index(abar, i)),
                                  assign(index(abar, i), Op::Assign, number(0, kFloat))}),
                   after});
  };
  Function moved = body(assign(index(xbar, i), Op::Add, var("v", kFloat)));
  transforms::sinkSeedZeroing(moved);
  std::string text = print(moved.body);
  CHECK(text.find("a_bar[i] = 0") > text.find("x_bar[i] += v;"));
  CHECK(text.find("// the seed a_bar[i], read above, zeroed after the loads") < text.find("a_bar[i] = 0"));
  // two such ifs in a row, the first holding nothing else: both wait, in one if at the end
  auto zeroing = [&](ExprPtr bar) { return ifStmt(guard, {assign(index(bar, i), Op::Assign, number(0, kFloat))}); };
  Function two = kernel({globalIndex("i"), zeroing(abar), zeroing(var("y_bar", kFloats)),
                         assign(index(xbar, i), Op::Add, number(1, kFloat))});
  two.params.push_back({"y_bar", kFloats, Role::Adjoint, "y"});
  transforms::sinkSeedZeroing(two);
  text = print(two.body);
  CHECK(text.find("x_bar[i] += 1") < text.find("if (i < n)"));
  CHECK(text.find("if (i < n)", text.find("if (i < n)") + 1) == std::string::npos);
  CHECK(text.find("// the seeds below") != std::string::npos);
  Function conditionChanges = body(assign(n, Op::Add, number(1, kInt)));
  std::string before = print(conditionChanges.body);
  transforms::sinkSeedZeroing(conditionChanges);
  CHECK(print(conditionChanges.body) == before);
}

TEST_CASE("a vector's seeds wait past the loads of its other lanes, not past a load of their own element") {
  ExprPtr i = var("i", kInt), abar = var("a_bar", kFloats), xbar = var("x_bar", kFloats);
  auto lane = [&](int k) {
    ExprPtr at = binary(Op::Mul, number(4, kInt), i);
    return index(abar, k ? binary(Op::Add, at, number(k, kInt)) : at);
  };
  // v1 = a_bar[4 * i + 1]; a_bar[4 * i + 1] = 0; v0 = a_bar[4 * i]; a_bar[4 * i] = 0; x_bar[i] += v0 + v1;
  auto body = [&](ExprPtr secondLoad) {
    return kernel({globalIndex("i"), decl("v1", kFloat, lane(1)), assign(lane(1), Op::Assign, number(0, kFloat)),
                   decl("v0", kFloat, secondLoad), assign(lane(0), Op::Assign, number(0, kFloat)),
                   assign(index(xbar, i), Op::Add, binary(Op::Add, var("v0", kFloat), var("v1", kFloat)))});
  };
  Function lanes = body(lane(0));
  transforms::sinkSeedZeroing(lanes);
  std::string text = print(lanes.body);
  CHECK(text.find("a_bar[4 * i + 1] = 0") > text.find("x_bar[i] +="));
  CHECK(text.find("// the seeds below, read above, zeroed after the loads that follow them") <
        text.find("a_bar[4 * i + 1] = 0"));
  Function sameLane = body(lane(1));  // the lane's own element read again: its zeroing stays before
  transforms::sinkSeedZeroing(sameLane);
  text = print(sameLane.body);
  CHECK(text.find("a_bar[4 * i + 1] = 0") < text.find("v0 = a_bar[4 * i + 1]"));
}

TEST_CASE("a warp's row times C plus its lanes' columns below C is a thread's own; other bounds are not") {
  ExprPtr n = var("n", kInt), row = var("row", kInt), off = var("off", kInt), xbar = var("x_bar", kFloats);
  ExprPtr u32 = number(32, kUnsigned), lane = cast(kInt, binary(Op::Rem, builtin("threadIdx.x"), u32));
  ExprPtr warps = binary(Op::Div, binary(Op::Add, builtin("blockDim.x"), number(31, kUnsigned)), u32);
  // int row = blockIdx.x * ((blockDim.x + 31u) / 32u) + threadIdx.x / 32u;
  StmtPtr rowDecl = decl("row", kInt,
                         cast(kInt, binary(Op::Add, binary(Op::Mul, builtin("blockIdx.x"), warps),
                                           binary(Op::Div, builtin("threadIdx.x"), u32))));
  // for (int c = lane; c < bound; c += 32u) x_bar[at + c] += 2.0f, and the reverse of that loop
  auto columns = [&](const char* c, ExprPtr bound, ExprPtr at, bool reversed) {
    analysis::CountedLoop loop{c, kInt, lane, bound, true, false, u32};
    StmtList body{assign(index(xbar, binary(Op::Add, at, var(c, kInt))), Op::Add, number(2, kFloat))};
    if (reversed) return analysis::reversedLoop(loop, body);
    return forStmt(decl(c, kInt, lane), binary(Op::Lt, var(c, kInt), bound), assign(var(c, kInt), Op::Add, u32), body);
  };
  auto accumulated = [&](StmtList body) {
    body.insert(body.begin(), rowDecl);
    Function f = kernel(body);
    transforms::parallelizeAdjoints(f, false);
    return print(f.body);
  };
  // long off = 0; if (row < n) off = row * n; ... if (row < n) { the loops over off + c }
  ExprPtr guard = binary(Op::Lt, row, n);
  StmtList offset{decl("off", kInt, number(0, kInt)),
                  ifStmt(guard, {assign(off, Op::Assign, binary(Op::Mul, row, n))})};
  StmtList guarded = offset;
  guarded.push_back(ifStmt(guard, {columns("c", n, off, false), columns("c", n, off, true)}));
  std::string own = accumulated(guarded);
  CHECK(own.find("atomicAdd") == std::string::npos);
  CHECK(own.find("// x[off + c]: each thread its own elements of a row: plain +=") != std::string::npos);
  CHECK(accumulated({columns("c", n, binary(Op::Mul, row, n), true)}).find("atomicAdd") == std::string::npos);
  // Columns up to 2n reach the next row; off read where its guard does not hold may still be 0.
  ExprPtr twice = binary(Op::Mul, number(2, kInt), n);
  CHECK(accumulated({columns("c", twice, binary(Op::Mul, row, n), false)}).find("atomicAdd") != std::string::npos);
  StmtList unguarded = offset;
  unguarded.push_back(columns("c", n, off, false));
  CHECK(accumulated(unguarded).find("atomicAdd") != std::string::npos);
}

TEST_CASE("rows that are a thread's own only in some launches say so: whole warps, or blocks of at most a step") {
  ExprPtr n = var("n", kInt), row = var("row", kInt), xbar = var("x_bar", kFloats);
  ExprPtr u32 = number(32, kUnsigned);
  ExprPtr global =
      binary(Op::Add, binary(Op::Mul, builtin("blockIdx.x"), builtin("blockDim.x")), builtin("threadIdx.x"));
  // for (int c = start; c < n; c += step) x_bar[row * n + c] += 2.0f, after int row = rowValue;
  auto accumulated = [&](ExprPtr rowValue, ExprPtr start, double step, bool deterministic = false) {
    StmtList loop{forStmt(
        decl("c", kInt, start), binary(Op::Lt, var("c", kInt), n), assign(var("c", kInt), Op::Add, number(step, kInt)),
        {assign(index(xbar, binary(Op::Add, binary(Op::Mul, row, n), var("c", kInt))), Op::Add, number(2, kFloat))})};
    loop.insert(loop.begin(), decl("row", kInt, cast(kInt, rowValue)));
    Function f = kernel(loop);
    transforms::parallelizeAdjoints(f, deterministic);
    return f;
  };
  ExprPtr lane = cast(kInt, binary(Op::Rem, builtin("threadIdx.x"), u32));
  // (blockIdx.x * blockDim.x + threadIdx.x) / 32: a row per warp where blocks are whole warps.
  Function warps = accumulated(binary(Op::Div, global, u32), lane, 32);
  CHECK(print(warps.body).find("atomicAdd") == std::string::npos);
  CHECK(warps.plainAddBlocks.wholeWarps);
  CHECK(warps.plainAddBlocks.maxThreads == 0);
  CHECK(codegen::launcher(warps).find("if (block.x % 32 != 0) return cudaErrorInvalidValue;") != std::string::npos);
  // Sixteen threads to a row: lanes 16 apart share columns.
  Function halves = accumulated(binary(Op::Div, global, number(16, kUnsigned)), lane, 32);
  CHECK(print(halves.body).find("atomicAdd") != std::string::npos);
  CHECK(!halves.plainAddBlocks.wholeWarps);
  // The block's row with columns from threadIdx.x by 32: distinct in blocks of at most 32 threads;
  // a plain += there only under --deterministic (the atomics measured faster).
  CHECK(print(accumulated(builtin("blockIdx.x"), cast(kInt, builtin("threadIdx.x")), 32).body).find("atomicAdd") !=
        std::string::npos);
  Function block = accumulated(builtin("blockIdx.x"), cast(kInt, builtin("threadIdx.x")), 32, true);
  CHECK(print(block.body).find("atomicAdd") == std::string::npos);
  CHECK(block.plainAddBlocks.maxThreads == 32);
  CHECK(codegen::launcher(block).find("if (block.x > 32) return cudaErrorInvalidValue;") != std::string::npos);
  CHECK(!block.plainAddBlocks.wholeWarps);
}

TEST_CASE("a counter from 0 compared widened with a literal (k < p.size of a pack) is a counted loop") {
  const Type size = Type::integer("size_t", true);
  ExprPtr k = var("k", kInt);
  auto loop = [&](double start, double bound) {
    return forStmt(decl("k", kInt, number(start, kInt)), binary(Op::Lt, cast(size, k), number(bound, size)),
                   assign(k, Op::Add, number(1, kInt)), {});
  };
  analysis::CountedLoop counted;
  REQUIRE(analysis::asCountedLoop(*loop(0, 4), counted));
  CHECK(print(*counted.bound) == "4");
  CHECK(counted.bound->type.spelled == "int");
  // From -1, (size_t)k is far above 4 at first: the loop does not run, where k < 4 would.
  CHECK_FALSE(analysis::asCountedLoop(*loop(-1, 4), counted));
  // A bound beyond int's range has no int spelling.
  CHECK_FALSE(analysis::asCountedLoop(*loop(0, 4294967296.0), counted));
}

TEST_CASE("a column of a row that data picks is added after the row's other additions, not atomically") {
  ExprPtr n = var("n", kInt), row = var("row", kInt), xbar = var("x_bar", kFloats),
          labels = var("labels", kInt.pointerTo(true));
  ExprPtr u32 = number(32, kUnsigned);
  ExprPtr global =
      binary(Op::Add, binary(Op::Mul, builtin("blockIdx.x"), builtin("blockDim.x")), builtin("threadIdx.x"));
  ExprPtr lane = cast(kInt, binary(Op::Rem, builtin("threadIdx.x"), u32));
  // x_bar[row * n + labels[row]] -= 1.0f (in a loop over k < 2 where `looped`), then
  // for (int c = lane; c < n; c += 32) x_bar[row * n + c] += 2.0f, after int row = rowValue;
  auto accumulated = [&](ExprPtr rowValue, ExprPtr start, ExprPtr step, bool looped) {
    ExprPtr picked = index(xbar, binary(Op::Add, binary(Op::Mul, row, n), index(labels, row)));
    StmtPtr pick = assign(picked, Op::Sub, number(1, kFloat));
    if (looped)
      pick = forStmt(decl("k", kInt, number(0, kInt)), binary(Op::Lt, var("k", kInt), number(2, kInt)),
                     assign(var("k", kInt), Op::Add, number(1, kInt)), {pick});
    StmtList body{
        decl("row", kInt, cast(kInt, rowValue)), pick,
        forStmt(decl("c", kInt, start), binary(Op::Lt, var("c", kInt), n), assign(var("c", kInt), Op::Add, step),
                {assign(index(xbar, binary(Op::Add, binary(Op::Mul, row, n), var("c", kInt))), Op::Add,
                        number(2, kFloat))})};
    Function f = kernel(body);
    f.params.push_back(Param{"labels", kInt.pointerTo(true), Role::Primal});
    transforms::parallelizeAdjoints(f, false);
    return print(f.body);
  };
  std::string warp = accumulated(binary(Op::Div, global, u32), lane, u32, false);
  CHECK(warp.find("atomicAdd") == std::string::npos);
  CHECK(warp.find("adjoint::keep_row_pick(x_bar_pick, static_cast<long long>(row * n), "
                  "static_cast<long long>(labels[row]), static_cast<long long>(n), (-1.0f));") != std::string::npos);
  // The addition waits for the barrier in add_row_pick, the last statement.
  CHECK(warp.rfind("adjoint::add_row_pick(x_bar, x_bar_pick);") > warp.find("x_bar[row * n + c] += 2.0f"));
  // Two runs of the pick in a loop would need two registers: atomics, as before.
  CHECK(accumulated(binary(Op::Div, global, u32), lane, u32, true).find("atomicAdd") != std::string::npos);
  // A block's row (columns from threadIdx.x by blockDim.x): added after the block's barrier.
  std::string block =
      accumulated(builtin("blockIdx.x"), cast(kInt, builtin("threadIdx.x")), builtin("blockDim.x"), false);
  CHECK(block.find("atomicAdd") == std::string::npos);
  CHECK(block.rfind("adjoint::add_block_row_pick(x_bar, x_bar_pick);") > block.find("x_bar[row * n + c] += 2.0f"));
}
