// Indices built from the digits of a thread's global index in a mixed radix, as tuned kernels
// permute a tensor's axes (llm.c's permute: b = idx / (NH * N * d), nh = idx % (NH * N * d) /
// (N * d), n = ..., then inp[b * N * 3 * NH * d + n * 3 * NH * d + nh * d + d_ + k * NH * d] for
// k = 0, 1, 2). Such an address is the same digits reordered and spread out: no two threads share
// one, which ThreadIndexing's affine rules cannot see.
//
// The proof, over sizes that are scalar parameters the kernel never assigns (all at least 1, which
// the launcher checks):
//  - each index is a sum of w * ((g / D) % (H / D)) terms (a digit of g, the thread's global index,
//    in [0, H / D); the last one g / D, unbounded, or below P / D under a guard g < P) plus an
//    offset the same in every thread;
//  - the digits tile g: the first D is 1, each next D the H before, the last unbounded (or its
//    H at least P under a guard g < P): distinct threads differ in some digit;
//  - the indices differ only in their offsets, multiples k * M of one size product M, which count
//    as one more digit k in [0, kmax];
//  - ordered by weight, each weight is at least the one before times its digit's range: digits
//    nest, so the sum is a mixed-radix number whose digits it determines.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ad/analysis/ThreadIndex.h"
#include "ad/ir/Function.h"

namespace adjoint::analysis {

class MixedRadix {
 public:
  // `sizes`: the scalar parameters the kernel never assigns.
  MixedRadix(const ir::Function& kernel, const ThreadIndexing& threads, std::set<std::string> sizes);

  struct Use {
    ir::ExprPtr index;
    const ir::Stmt* stmt;  // the statement that reads or writes there
  };
  // Whether no two threads share an element among these indices (each thread may reach several).
  // If so, `positive` receives the sizes the proof takes to be at least 1.
  bool distinctOverThreads(const std::vector<Use>& uses, std::set<std::string>& positive) const;

 private:
  const ThreadIndexing& threads_;
  std::set<std::string> sizes_;
  std::set<std::string> assigned_;
  // What each statement sees: the values of locals (of sizes, literals and the CUDA built-ins
  // alone; null where not known), and the conditions of the ifs around it, in those terms.
  struct Seen {
    std::map<std::string, ir::ExprPtr> known;
    std::vector<ir::ExprPtr> guards;
  };
  std::map<const ir::Stmt*, Seen> seen_;

  struct Values;
  void record(const ir::StmtList& body, Values& values);
};

}  // namespace adjoint::analysis
