// What generated kernels include: the launch of a kernel, and the block reductions that turn
// adjoints every thread adds to one address into one sum per block. Compiled by nvcc it runs on
// the GPU; compiled by a host compiler with ADJOINT_CPU_EXECUTION defined, kernels run on the CPU
// (adjoint/cuda_cpu.h).
#pragma once

#include "adjoint/cuda_host.h"

namespace adjoint {

#ifndef ADJOINT_CPU_EXECUTION
// kernel<<<grid, block, shmem, stream>>>(args...), as a function the CPU execution also provides.
template <class... Params, class... Args>
cudaError_t launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shmem, cudaStream_t stream, Args... args) {
  kernel<<<grid, block, shmem, stream>>>(args...);
  return cudaGetLastError();
}
#endif

__device__ inline unsigned thread_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
__device__ inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
__device__ inline unsigned block_rank() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
__device__ inline unsigned grid_blocks() { return gridDim.x * gridDim.y * gridDim.z; }

// The sum of `value` over the first `lanes` lanes of the warp, in lane 0; always added in the
// same order.
template <class T>
__device__ T warp_sum(T value, unsigned lanes) {
  unsigned mask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1;
  unsigned lane = thread_rank() % 32;
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    T other = __shfl_down_sync(mask, value, offset);
    if (lane + offset < lanes) value += other;
  }
  return value;
}

// The sum of `value` over the block, in thread 0, in a fixed order. Every thread of the block
// must call it (it waits at barriers).
template <class T>
__device__ T block_sum(T value) {
  __shared__ T warp_sums[32];
  unsigned t = thread_rank(), n = block_threads();
  unsigned warp = t / 32, warps = (n + 31) / 32;
  value = warp_sum(value, warp + 1 < warps ? 32u : n - 32 * warp);
  __syncthreads();  // an earlier call's readers of warp_sums are done
  if (t % 32 == 0) warp_sums[warp] = value;
  __syncthreads();
  if (warp == 0) value = warp_sum(t < warps ? warp_sums[t] : T(0), n < 32 ? n : 32u);
  return value;
}

// Adds `value`, summed over all the threads of the grid, to *target. Every thread of the block
// must call it. Without `partials`: the block's sum, added with one atomic per block. With them:
// each warp stores its sum as a partial sum of `slot`, without waiting for the rest of its block,
// and PartialSums::add_to later adds them to *target in a fixed order (deterministic, and free
// of contention on one address).
template <class T>
__device__ void sum_over_threads_into(T* target, T value, double* partials, unsigned slot) {
  unsigned t = thread_rank(), n = block_threads();
  if (partials) {
    unsigned warp = t / 32, warps = (n + 31) / 32;
    T sum = warp_sum(value, warp + 1 < warps ? 32u : n - 32 * warp);
    if (t % 32 == 0) partials[(size_t{slot} * grid_blocks() + block_rank()) * warps + warp] = sum;
    return;
  }
  T sum = block_sum(value);
  if (t == 0) atomicAdd(target, sum);
}

// Adds `value` to *address, where every thread of the warp that runs this passes the same
// address: a whole warp adds its sum with one atomic; a partial warp adds lane by lane. (The CPU
// execution does not model divergent warps, so there every lane adds its own.)
template <class T>
__device__ void warp_add(T* address, T value) {
#ifdef ADJOINT_CPU_EXECUTION
  atomicAdd(address, value);
  return;
#endif
  if (__activemask() != 0xffffffffu) {
    atomicAdd(address, value);
    return;
  }
  value = warp_sum(value, 32u);
  if (thread_rank() % 32 == 0) atomicAdd(address, value);
}

// The grid for a kernel that runs the blocks of `grid` in turn (see transforms::runBlocksInTurn):
// eight times as many blocks as the GPU holds at once (measured best for W1 on the H200), at
// most grid.x. The CPU execution takes two, so that tests run blocks in turn too.
template <class... Params>
dim3 resident_grid(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shmem) {
#ifdef ADJOINT_CPU_EXECUTION
  static_cast<void>(kernel);
  static_cast<void>(block);
  static_cast<void>(shmem);
  return dim3(grid.x < 2 ? grid.x : 2);
#else
  int device = 0, processors = 0, per_processor = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_processor, kernel, int(block.x * block.y * block.z), shmem) != cudaSuccess)
    return grid;
  unsigned resident = 8u * unsigned(processors) * unsigned(per_processor);
  return dim3(resident && resident < grid.x ? resident : grid.x);
#endif
}

// The adjoints of the warp shuffles: what the shuffled value v of this lane receives, when adj
// is the adjoint of the shuffle's result y in each lane. Every lane of `mask` calls them, as
// every lane ran the shuffle. l is the lane's index within its group of `width` lanes.

// y_l = v_(l xor m), a permutation:  v_bar_l = y_bar_(l xor m)
template <class T>
__device__ T shfl_xor_sync_adjoint(unsigned mask, T adj, int lane_mask, int width = 32) {
  return __shfl_xor_sync(mask, adj, lane_mask, width);
}
// y_l = v_(l+d) where l + d < width, else v_l:  v_bar_l = [l >= d] y_bar_(l-d) + [l + d >= width] y_bar_l
template <class T>
__device__ T shfl_down_sync_adjoint(unsigned mask, T adj, unsigned delta, int width = 32) {
  T from_below = __shfl_up_sync(mask, adj, delta, width);
  unsigned l = thread_rank() % 32 % width;
  return (l >= delta ? from_below : T(0)) + (l + delta >= unsigned(width) ? adj : T(0));
}
// y_l = v_(l-d) where l >= d, else v_l:  v_bar_l = [l + d < width] y_bar_(l+d) + [l < d] y_bar_l
template <class T>
__device__ T shfl_up_sync_adjoint(unsigned mask, T adj, unsigned delta, int width = 32) {
  T from_above = __shfl_down_sync(mask, adj, delta, width);
  unsigned l = thread_rank() % 32 % width;
  return (l + delta < unsigned(width) ? from_above : T(0)) + (l < delta ? adj : T(0));
}
// y_l = v_(src_l), a gather:  v_bar_j = sum of y_bar_l over the lanes l that read lane j, added in
// lane order.
template <class T>
__device__ T shfl_sync_adjoint(unsigned mask, T adj, int src, int width = 32) {
  unsigned lane = thread_rank() % 32;
  unsigned read = lane - lane % unsigned(width) + unsigned(src) % unsigned(width);
  T sum = T(0);
  for (int k = 0; k < 32; ++k) {
    T other = __shfl_sync(mask, adj, k);
    if (__shfl_sync(mask, read, k) == lane) sum += other;
  }
  return sum;
}

// The number of times `for (c = a; c > 0; c /= 2)` runs: how Adjoint counts halving loops, so
// that their reverse runs as a counted loop.
__host__ __device__ inline int halvings(long long a) {
  int n = 0;
  for (; a > 0; a /= 2) ++n;
  return n;
}

// Block b adds in[b * chunk ...] (at most `chunk` values, fewer at the end of `count`) into
// out[b], or stores the sum there; every sum in the same order.
template <class T>
__global__ void sum_in_order(const double* in, unsigned count, unsigned chunk, T* out, bool accumulate) {
  unsigned begin = block_rank() * chunk, end = count - begin < chunk ? count : begin + chunk;
  double sum = 0;
  for (unsigned i = begin + thread_rank(); i < end; i += block_threads()) sum += in[i];
  sum = block_sum(sum);
  if (thread_rank() == 0) out[block_rank()] = accumulate ? T(out[block_rank()] + sum) : T(sum);
}

// Device storage for the per-warp partial sums of a kernel's adjoints (`slots` sums per warp),
// added into their targets by a second pass that is deterministic: the same inputs give
// bitwise the same gradients.
class PartialSums {
 public:
  PartialSums(unsigned slots, dim3 grid, dim3 block, cudaStream_t stream)
      : slots_(slots),
        blocks_(grid.x * grid.y * grid.z * ((block.x * block.y * block.z + 31) / 32)),
        chunks_((blocks_ + kChunk - 1) / kChunk),
        stream_(stream) {
    size_t n = size_t{slots} * (blocks_ + chunks_);
    if (n && cudaMallocAsync(&data_, n * sizeof(double), stream) != cudaSuccess) data_ = nullptr;
  }
  ~PartialSums() {
    if (data_) cudaFreeAsync(data_, stream_);
  }
  PartialSums(const PartialSums&) = delete;
  PartialSums& operator=(const PartialSums&) = delete;

  double* data() const { return data_; }
  cudaError_t status() const { return data_ || !slots_ ? cudaSuccess : cudaErrorMemoryAllocation; }

  // Adds the partial sums of `slot` into *target: the sums of chunks of kChunk warps first,
  // then those.
  template <class T>
  cudaError_t add_to(unsigned slot, T* target) const {
    const double* partials = data_ + size_t{slot} * blocks_;
    double* chunk_sums = data_ + size_t{slots_} * blocks_ + size_t{slot} * chunks_;
    cudaError_t e = launch(sum_in_order<double>, dim3(chunks_), dim3(1024), 0, stream_, partials, blocks_, kChunk, chunk_sums, false);
    if (e != cudaSuccess) return e;
    return launch(sum_in_order<T>, dim3(1), dim3(1024), 0, stream_, static_cast<const double*>(chunk_sums), chunks_, chunks_, target, true);
  }

 private:
  static constexpr unsigned kChunk = 4096;
  unsigned slots_, blocks_, chunks_;  // blocks_: the warps of the grid
  cudaStream_t stream_;
  double* data_ = nullptr;
};

}  // namespace adjoint
