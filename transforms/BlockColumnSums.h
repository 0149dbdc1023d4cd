// Part of parallel-adjoints (ParallelAdjoints.cpp), which chooses the arrays: adjoint arrays that
// a kernel only adds to, at loop counters below one width C the same in every thread (a
// layernorm's weight_bar[c] over its row's columns), summed by each block in its dynamic shared
// memory, then each column added once, instead of an atomicAdd per thread (or warp) and column.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ad/ir/Function.h"
#include "ad/ir/Names.h"

namespace adjoint::transforms {

// for (T j = thread_rank(); j < bound; j += block_threads()) body(j): the block's threads
// together over [0, bound).
ir::StmtPtr blockStrideLoop(const std::string& name, const ir::Type& t, const ir::ExprPtr& bound,
                            const std::function<ir::StmtList(const ir::ExprPtr&)>& body);

class BlockColumnSums {
 public:
  BlockColumnSums(ir::Function& d, ir::NameSet& names) : d_(d), names_(names) {}

  // Takes the adjoint array `bar`, added to at columns below `width`, where it agrees with the
  // arrays taken before (one width, one element type); returns whether it did.
  bool take(const std::string& bar, const ir::ExprPtr& width);
  // The element of bar's block sums at `column`; null where bar was not taken.
  ir::ExprPtr at(const std::string& bar, const ir::ExprPtr& column) const;
  bool empty() const { return arrays_.empty(); }
  // The kernel's first statements: the block's sums in its dynamic shared memory, cleared before
  // any thread adds to them; where the columns do not fit there, the launcher gives none, and
  // the sums are the adjoint arrays themselves (each add then an atomicAdd there).
  ir::StmtList start();
  // Its last: once every thread of the block has added its part, each column's block sum added
  // once (a column nothing was added to, not at all: the buffer may not have been given).
  ir::StmtList finish();

 private:
  struct Array {
    std::string bar, block;  // the adjoint array, and the local pointing at its block sums
  };
  ir::Function& d_;
  ir::NameSet& names_;
  std::vector<Array> arrays_;
  ir::ExprPtr width_;
  ir::Type element_;
  std::string inBlock_;  // the local saying whether the launcher gave the block its column sums

  ir::Type blockType() const;
  ir::ExprPtr inBlock() const;
  ir::StmtPtr overColumns(const std::function<ir::StmtList(const ir::ExprPtr&)>& body);
};

}  // namespace adjoint::transforms
