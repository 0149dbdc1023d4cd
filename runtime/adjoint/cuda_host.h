// The CUDA runtime as the host side of generated kernels uses it: the real runtime, or, when
// ADJOINT_CPU_EXECUTION is defined, the CPU execution of kernels (adjoint/cuda_cpu.h) for tests
// on machines without a GPU. Generated headers include this, so plain C++ code can call the
// kernels' launchers.
#pragma once

#include <initializer_list>

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

// How a kernel's vjp launcher (K_vjp_launch's last argument) may treat the adjoint arrays it gets.
//   add:   the convention: the adjoint of an array the kernel only reads is added into (+=), and
//          each seed comes out as the adjoint of its array as the kernel received it (zero where
//          the kernel overwrote the element).
//   fresh: the caller promises that the adjoints of the arrays the kernel only reads hold zero,
//          and that it has no use for the adjoints of the values the kernel overwrites (zero under
//          add). An adjoint element no other statement adds to is then stored (=), with no load,
//          and a seed's element the kernel overwrote may be left holding its seed (or a part of
//          the adjoint) instead of zero: what a hand-written backward kernel does, one load and one
//          store per element fewer. Every other adjoint comes out as with add.
enum class Bars { add, fresh };

// Whether two of the pointers (null ones aside: optional buffers not given) are one. A vjp
// launcher given one buffer for two of its adjoints refuses the launch: a seed and the additions
// into it, or two stores, would meet in one element.
inline bool one_buffer_twice(std::initializer_list<const void*> pointers) {
  for (auto a = pointers.begin(); a != pointers.end(); ++a)
    for (auto b = a + 1; b != pointers.end(); ++b)
      if (*a && *a == *b) return true;
  return false;
}

}  // namespace adjoint
