// The CUDA runtime as the host side of generated kernels uses it: the real runtime, or, when
// ADJOINT_CPU_EXECUTION is defined, the CPU execution of kernels (adjoint/cuda_cpu.h) for tests
// on machines without a GPU. Generated headers include this, so plain C++ code can call the
// kernels' launchers.
#pragma once

#ifdef ADJOINT_CPU_EXECUTION
#include "adjoint/cuda_cpu.h"
#else
#include <cuda_runtime.h>
#endif

namespace adjoint {

// Where the per-block sums of a kernel's adjoints meet (sum_over_threads_into in adjoint/cuda.h):
// `slots` sums per block, then per group of kGroupBlocks blocks, and the counters of the blocks
// that have finished. The launchers get it from block_sums(); null pointers mean "none".
struct BlockSums {
  double* sums = nullptr;
  unsigned* arrivals = nullptr;  // one per group, then one for the groups
  unsigned slots = 0;
};
constexpr unsigned kGroupBlocks = 1024;

}  // namespace adjoint
