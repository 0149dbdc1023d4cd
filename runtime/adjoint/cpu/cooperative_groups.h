// For a CPU-execution build of CUDA code: <cooperative_groups.h> over the CPU execution of kernels
// (adjoint/cuda_cpu.h). The block, its tiles of Size threads (a power of two up to 32) and their
// reduction, as CUDA's header defines them, for the kernels users write with them to run on the
// CPU. A block's threads are ranked as CUDA ranks them: x fastest, then y, then z.
#pragma once

#include "adjoint/cuda_cpu.h"

namespace cooperative_groups {

class thread_block {
 public:
  static unsigned thread_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
  static unsigned size() { return blockDim.x * blockDim.y * blockDim.z; }
  static unsigned num_threads() { return size(); }
  static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static dim3 dim_threads() { return blockDim; }
  static void sync() { __syncthreads(); }
};

inline thread_block this_thread_block() { return {}; }

template <unsigned Size, class Parent = void>
class thread_block_tile {
  static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0, "a tile is a power of two up to 32 threads");

 public:
  static unsigned thread_rank() { return thread_block::thread_rank() % Size; }
  static unsigned size() { return Size; }
  static unsigned num_threads() { return Size; }
  static unsigned meta_group_rank() { return thread_block::thread_rank() / Size; }
  static unsigned meta_group_size() { return (thread_block::size() + Size - 1) / Size; }
  static void sync() { __syncwarp(); }
  template <class T>
  static T shfl(T value, int source) {
    return __shfl_sync(0xffffffffu, value, source, Size);
  }
  template <class T>
  static T shfl_xor(T value, int mask) {
    return __shfl_xor_sync(0xffffffffu, value, mask, Size);
  }
  template <class T>
  static T shfl_down(T value, unsigned delta) {
    return __shfl_down_sync(0xffffffffu, value, delta, Size);
  }
  template <class T>
  static T shfl_up(T value, unsigned delta) {
    return __shfl_up_sync(0xffffffffu, value, delta, Size);
  }
  operator thread_block_tile<Size, void>() const { return {}; }  // a tile of a block is a tile
};

template <unsigned Size, class Parent>
thread_block_tile<Size, Parent> tiled_partition(const Parent&) {
  return {};
}

template <class Group>
void sync(const Group& g) {
  g.sync();
}

}  // namespace cooperative_groups

#include "cooperative_groups/reduce.h"
