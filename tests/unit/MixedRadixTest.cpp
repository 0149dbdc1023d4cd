// Indices made of the digits of the thread's index (analysis/MixedRadix.h): a permute's, proven
// distinct over threads, and the near misses that collide.
#include <doctest/doctest.h>

#include <functional>

#include "HandBuiltIr.h"
#include "ad/analysis/MixedRadix.h"
#include "ad/ir/Printer.h"
#include "codegen/Launcher.h"
#include "transforms/ParallelAdjoints.h"

using namespace adjoint;
using namespace adjoint::handbuilt;
using namespace adjoint::ir;

namespace {

ExprPtr v(const char* name) { return var(name, kInt); }
ExprPtr lit(int k) { return number(k, kInt); }
ExprPtr times(std::vector<ExprPtr> factors) {
  ExprPtr p = factors[0];
  for (size_t k = 1; k < factors.size(); ++k) p = binary(Op::Mul, p, factors[k]);
  return p;
}
ExprPtr plus(std::vector<ExprPtr> terms) {
  ExprPtr s = terms[0];
  for (size_t k = 1; k < terms.size(); ++k) s = binary(Op::Add, s, terms[k]);
  return s;
}

// llm.c's permute, as its forward sweep reads: the digits of idx over (B, NH, N, d), `rest`
// assigned twice, then the element of q, k or v (offset k * NH * d) in inp, laid out (B, N, 3, NH, d).
// `address` builds inp's index from b, n, nh, d_.
StmtList permuteBody(const std::function<ExprPtr()>& address) {
  ExprPtr idx = v("idx"), rest = v("rest");
  ExprPtr threadIndex = cast(kInt, binary(Op::Add,
                                          binary(Op::Mul, var("blockIdx.x", Type::integer("unsigned int", true)),
                                                 var("blockDim.x", Type::integer("unsigned int", true))),
                                          var("threadIdx.x", Type::integer("unsigned int", true))));
  StmtList inside = {
      decl("b", kInt, binary(Op::Div, idx, times({v("NH"), v("N"), v("d")}))),
      decl("rest", kInt, binary(Op::Rem, idx, times({v("NH"), v("N"), v("d")}))),
      decl("nh", kInt, binary(Op::Div, rest, times({v("N"), v("d")}))),
      assign(rest, Op::Assign, binary(Op::Rem, rest, times({v("N"), v("d")}))),
      decl("n", kInt, binary(Op::Div, rest, v("d"))),
      decl("d_", kInt, binary(Op::Rem, rest, v("d"))),
      decl("at", kInt, address()),
  };
  return {decl("idx", kInt, threadIndex),
          ifStmt(binary(Op::Lt, idx, times({v("B"), v("NH"), v("N"), v("d")})), inside)};
}

ExprPtr permuteAddress() {
  return plus({times({v("b"), v("N"), lit(3), v("NH"), v("d")}), times({v("n"), lit(3), v("NH"), v("d")}),
               times({v("nh"), v("d")}), v("d_")});
}

Function kernel(StmtList body) {
  return handbuilt::kernel("permute",
                           {{"inp", kFloats},
                            {"B", kInt},
                            {"N", kInt},
                            {"NH", kInt},
                            {"d", kInt},
                            {"inp_bar", kFloats, Role::Adjoint, "inp"}},
                           std::move(body));
}

// inp_bar[at + k * NH * d] += 1 for each k of `ks`, in the if of the body, and whether the
// analysis finds those elements distinct over threads.
bool distinct(StmtList body, std::vector<int> ks, std::set<std::string>& positive) {
  Function f = kernel(std::move(body));
  StmtList& inside = f.body.back()->body;
  std::vector<const Stmt*> adds;
  std::vector<ExprPtr> indices;
  for (int k : ks) {
    ExprPtr at = k ? binary(Op::Add, v("at"), times({lit(k), v("NH"), v("d")})) : v("at");
    inside.push_back(assign(index(var("inp_bar", kFloats), at), Op::Add, number(1, kFloat)));
    indices.push_back(at);
  }
  analysis::ThreadIndexing threads(f);
  analysis::MixedRadix radix(f, threads, {"B", "N", "NH", "d"});
  std::vector<analysis::MixedRadix::Use> uses;
  for (size_t k = 0; k < ks.size(); ++k) uses.push_back({indices[k], inside[inside.size() - ks.size() + k].get()});
  return radix.distinctOverThreads(uses, positive);
}

bool distinct(StmtList body, std::vector<int> ks) {
  std::set<std::string> positive;
  return distinct(std::move(body), std::move(ks), positive);
}

}  // namespace

TEST_CASE("a permute's q, k and v elements of inp are distinct over threads, for sizes of at least 1") {
  std::set<std::string> positive;
  CHECK(distinct(permuteBody(permuteAddress), {0, 1, 2}, positive));
  CHECK(positive == std::set<std::string>{"N", "NH", "d"});
  // unpermute's layout (B, N, NH, d), one element per thread
  CHECK(distinct(permuteBody([] {
                   return plus({times({v("b"), v("NH"), v("N"), v("d")}), times({v("n"), v("NH"), v("d")}),
                                times({v("nh"), v("d")}), v("d_")});
                 }),
                 {0}));
}

TEST_CASE(
    "digits that collide are not distinct: a fourth offset, weights that do not nest, a digit left out or "
    "used twice") {
  CHECK_FALSE(distinct(permuteBody(permuteAddress), {0, 1, 3}));  // k = 3 of row n is k = 0 of row n + 1
  CHECK_FALSE(distinct(permuteBody([] {                           // (B, N, NH, d) with three offsets of NH * d
                         return plus({times({v("b"), v("N"), v("NH"), v("d")}), times({v("n"), v("NH"), v("d")}),
                                      times({v("nh"), v("d")}), v("d_")});
                       }),
                       {0, 1}));
  CHECK_FALSE(distinct(permuteBody([] {  // nh left out: threads differing in it alone meet
                         return plus({times({v("b"), v("N"), lit(3), v("NH"), v("d")}),
                                      times({v("n"), lit(3), v("NH"), v("d")}), v("d_")});
                       }),
                       {0}));
  CHECK_FALSE(distinct(permuteBody([] {  // d_ in place of nh
                         return plus({times({v("b"), v("N"), lit(3), v("NH"), v("d")}),
                                      times({v("n"), lit(3), v("NH"), v("d")}), times({v("d_"), v("d")}), v("d_")});
                       }),
                       {0}));
}

TEST_CASE("a local assigned in a loop has no known value there: its digits are not read") {
  StmtList body = permuteBody(permuteAddress);
  StmtList& inside = body.back()->body;
  // for (int j = 0; j < 2; ++j) rest = rest % d;  -- then `n`, read after it, is not known
  StmtPtr loop = forStmt(decl("j", kInt, lit(0)), binary(Op::Lt, v("j"), lit(2)), assign(v("j"), Op::Add, lit(1)),
                         {assign(v("rest"), Op::Assign, binary(Op::Rem, v("rest"), v("d")))});
  inside.insert(inside.begin() + 4, loop);
  CHECK_FALSE(distinct(std::move(body), {0}));
}

TEST_CASE("a permute's adjoint is deterministic with its atomics, and its launcher then checks the sizes") {
  auto parallelized = [](bool deterministic) {
    Function f = kernel(permuteBody(permuteAddress));
    StmtList& inside = f.body.back()->body;
    for (int k = 0; k < 3; ++k)
      inside.push_back(assign(
          index(var("inp_bar", kFloats), k ? binary(Op::Add, v("at"), times({lit(k), v("NH"), v("d")})) : v("at")),
          Op::Add, number(1, kFloat)));
    transforms::parallelizeAdjoints(f, deterministic);  // --deterministic refuses an atomic it cannot prove alone
    return f;
  };
  Function deterministic = parallelized(true);
  CHECK(print(deterministic.body)
            .find("// inp[at + 2 * NH * d]: the digits of the thread's index, reordered: no two threads share it: "
                  "atomicAdd, deterministic\n  atomicAdd(&inp_bar[at + 2 * NH * d], 1.0f);") != std::string::npos);
  CHECK(codegen::launcher(deterministic).find("if (N < 1 || NH < 1 || d < 1)") != std::string::npos);
  Function fast = parallelized(false);  // the same atomics, and no sizes to check
  CHECK(print(fast.body).find("threads may share the index: atomicAdd") != std::string::npos);
  CHECK(codegen::launcher(fast).find("< 1") == std::string::npos);
}

TEST_CASE("a transpose's top digit is bounded by the guard on the thread's index, and only so") {
  auto distinctUnder = [](ExprPtr limit, std::set<std::string>& positive) {
    ExprPtr t = v("t");
    StmtPtr add =
        assign(index(var("inp_bar", kFloats), plus({times({v("r"), v("N")}), v("c")})), Op::Add, number(1, kFloat));
    StmtList inside = {decl("c", kInt, binary(Op::Div, t, v("B"))), decl("r", kInt, binary(Op::Rem, t, v("B"))), add};
    ExprPtr threadIndex = cast(kInt, binary(Op::Add,
                                            binary(Op::Mul, var("blockIdx.x", Type::integer("unsigned int", true)),
                                                   var("blockDim.x", Type::integer("unsigned int", true))),
                                            var("threadIdx.x", Type::integer("unsigned int", true))));
    StmtList body = {decl("t", kInt, threadIndex)};
    if (limit)
      body.push_back(ifStmt(binary(Op::Lt, t, limit), inside));
    else
      body.insert(body.end(), inside.begin(), inside.end());
    Function f = kernel(body);
    analysis::ThreadIndexing threads(f);
    analysis::MixedRadix radix(f, threads, {"B", "N", "NH", "d"});
    return radix.distinctOverThreads({{add->lhs->operands[1], add.get()}}, positive);
  };
  // c = t / B below N, r = t % B: r * N + c is the element (c, r) of the transpose
  std::set<std::string> positive;
  CHECK(distinctUnder(times({v("B"), v("N")}), positive));
  CHECK(positive == std::set<std::string>{"B", "N"});
  CHECK_FALSE(distinctUnder(nullptr, positive));                          // c unbounded
  CHECK_FALSE(distinctUnder(times({lit(2), v("B"), v("N")}), positive));  // c up to 2N: meets r + 1
}
