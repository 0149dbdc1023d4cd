// How the values of a kernel spread over its threads: which are the same in every thread, which
// differ, and which indices no two threads share. This decides how a kernel's adjoints are
// accumulated: a plain += where the index is injective over threads, one sum per block where
// every thread adds to the same address, an atomic otherwise.
//
// Injectivity is claimed for one-dimensional launches only (kernels that read no .y or .z of
// threadIdx, blockIdx, blockDim or gridDim); their launchers check the launch's shape.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ad/ir/Function.h"

namespace adjoint::analysis {

enum class Spread {
  Uniform,         // the same value in every thread of the grid
  Varying,         // may differ between threads, and two threads may share it
  BlockInjective,  // distinct in the threads of one block (threadIdx.x and its affine variants)
  GridInjective,   // distinct in all threads of the grid, in every iteration of a grid-stride loop
};

class ThreadIndexing {
 public:
  explicit ThreadIndexing(const ir::Function& kernel);

  Spread spread(const ir::ExprPtr& e) const;
  // Whether e is the global index of the thread (blockIdx.x * blockDim.x + threadIdx.x), or a
  // local defined once as that: one value per thread, below gridDim.x * blockDim.x.
  bool isThreadIndex(const ir::Expr& e) const;
  // Whether the kernel relies on a one-dimensional launch for its injectivity claims.
  bool oneDimensional() const { return oneDimensional_; }

 private:
  struct Definition {
    ir::ExprPtr value;
    bool underVaryingControl;
    const ir::Stmt* stmt;
  };
  std::map<std::string, std::vector<Definition>> defs_;
  std::set<std::string> varying_, gridInjective_, blockInjective_, writtenArrays_;
  std::set<std::string> threadIndexAliases_;  // locals holding threadIdx.x
  std::set<std::string> globalIndexVars_;     // locals holding the global thread index
  bool oneDimensional_ = true;

  void collect(const ir::StmtList& body, std::vector<ir::ExprPtr>& conditions);
  bool isVarying(const ir::ExprPtr& e) const;
  bool isGridStrideCounter(const std::string& v) const;
  bool isGlobalThreadIndex(const ir::Expr& e) const;
};

}  // namespace adjoint::analysis
