// Kernels' tapes as global scratch (transforms/TapeScratch.h): a push and its pop at the same slot
// of a launcher-provided array, and a push whose runs cannot be counted is a diagnostic.
#include <doctest/doctest.h>

#include "HandBuiltIr.h"
#include "ad/ir/Diagnostic.h"
#include "ad/ir/Printer.h"
#include "codegen/Launcher.h"
#include "transforms/TapeScratch.h"

using namespace adjoint;
using namespace adjoint::handbuilt;
using namespace adjoint::ir;

namespace {

// for (int s = 0; s < K; ++s) { body }, or its reverse.
StmtPtr loop(bool reverse, StmtList body) {
  ExprPtr s = var("s", kInt), bound = var("K", kInt);
  if (reverse)
    return forStmt(decl("s", kInt, sub(bound, number(1, kInt))), binary(Op::Ge, s, number(0, kInt)),
                   assign(s, Op::Sub, number(1, kInt)), std::move(body));
  return forStmt(decl("s", kInt, number(0, kInt)), binary(Op::Lt, s, bound), assign(s, Op::Add, number(1, kInt)),
                 std::move(body));
}

Function kernel(StmtList body) {
  Function f = handbuilt::kernel("k_vjp", {{"K", kInt}}, std::move(body));
  f.primal = "k";
  return f;
}

}  // namespace

TEST_CASE("a kernel's tape is a scratch array: the push and the pop of one iteration share a slot") {
  ExprPtr tape = var("v_tape", Type::tapeOf(kDouble)), v = var("v", kDouble);
  Function f = kernel({decl("v_tape", Type::tapeOf(kDouble), nullptr), decl("v", kDouble, number(1, kDouble)),
                       loop(false, {push(tape, v), assign(v, Op::Assign, call("sin", {v}, kDouble))}),
                       loop(true, {assign(v, Op::Assign, pop(tape))})});
  transforms::tapesInScratch(f);
  std::string slot =
      "static_cast<long long>(s) * (static_cast<long long>(gridDim.x) * blockDim.x) + "
      "(static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x)";
  std::string body = print(f.body);
  CHECK(body.find("v_tape[" + slot + "] = v;") != std::string::npos);
  CHECK(body.find("v = v_tape[" + slot + "];") != std::string::npos);
  CHECK(body.find("std::vector") == std::string::npos);
  REQUIRE(f.tapeScratch.size() == 1);
  CHECK(print(*f.tapeScratch[0].perThread) == "static_cast<long long>(K)");
  CHECK(codegen::launcher(f).find("double* v_tape = scratch.take<double>(static_cast<long long>(grid.x) * block.x * "
                                  "std::max(0LL, static_cast<long long>(K)));") != std::string::npos);
}

TEST_CASE("a kernel's tape pushed in a while loop has no slots to count: a diagnostic") {
  ExprPtr tape = var("v_tape", Type::tapeOf(kDouble)), v = var("v", kDouble);
  Function f = kernel({decl("v_tape", Type::tapeOf(kDouble), nullptr), decl("v", kDouble, number(1, kDouble)),
                       whileStmt(binary(Op::Gt, v, number(0.5, kDouble)),
                                 {push(tape, v), assign(v, Op::Assign, call("sin", {v}, kDouble))})});
  CHECK_THROWS_AS(transforms::tapesInScratch(f), Diagnostic);
}

namespace {

// for (s) { double p = v; push(p); [between]; push(v); v = sin(v); } and its reverse, which reads
// both tapes back: p's first, into a constant, then v's.
Function copyPushedBesideItsSource(StmtList between) {
  ExprPtr pTape = var("p_tape", Type::tapeOf(kDouble)), vTape = var("v_tape", Type::tapeOf(kDouble));
  ExprPtr v = var("v", kDouble), p = var("p", kDouble);
  StmtList forward{decl("p", kDouble, v), push(pTape, p)};
  for (StmtPtr& s : between) forward.push_back(s);
  forward.push_back(push(vTape, v));
  forward.push_back(assign(v, Op::Assign, call("sin", {p}, kDouble)));
  Type constant = kDouble;
  constant.constant = true;
  return kernel({decl("p_tape", Type::tapeOf(kDouble), nullptr), decl("v_tape", Type::tapeOf(kDouble), nullptr),
                 decl("v", kDouble, number(1, kDouble)), loop(false, forward),
                 loop(true, {decl("p", constant, pop(pTape)), assign(v, Op::Assign, pop(vTape))})});
}

}  // namespace

TEST_CASE("a local copied from another is pushed beside it: one tape keeps both, read once per run") {
  Function f = copyPushedBesideItsSource({});
  transforms::tapesInScratch(f);
  std::string body = print(f.body);
  REQUIRE(f.tapeScratch.size() == 1);
  CHECK(f.tapeScratch[0].name == "p_tape");
  CHECK(body.find("v_tape") == std::string::npos);
  CHECK(body.find("v = p;") != std::string::npos);
}

TEST_CASE("a copy whose source changes before its push is pushed apart") {
  Function f = copyPushedBesideItsSource({assign(var("v", kDouble), Op::Mul, number(2, kDouble))});
  transforms::tapesInScratch(f);
  CHECK(f.tapeScratch.size() == 2);
  CHECK(print(f.body).find("v = v_tape[") != std::string::npos);
}
