// How many elements of an array parameter a kernel's threads can touch: one past the largest
// index any thread reads or writes, as an expression over the kernel's integer parameters and
// its launch (gridDim, blockDim). Host code needs it to size the copies of buffers it passes.
//
// Bounds come from what the kernel itself states: the ranges of the thread and block indices, the
// guards of the accesses (`if (i < n)`, `if (i >= n) return;`) and the conditions of counted loops
// (`for (int j = 0; j < C; ++j)`). Integer parameters are taken as non-negative (they are sizes).
#pragma once

#include <string>

#include "ad/ir/Function.h"

namespace adjoint::analysis {

struct AccessExtent {
  // One past the largest index of the accesses with a bound; null when none has one, or when a
  // write's index has none (or the kernel passes the array on to a call).
  ir::ExprPtr extent;
  // Some read's index has no bound to tell: an index read from memory (logits[row * C + label[row]]).
  bool unboundedReads = false;
};

AccessExtent accessExtent(const ir::Function& kernel, const std::string& array);

}  // namespace adjoint::analysis
