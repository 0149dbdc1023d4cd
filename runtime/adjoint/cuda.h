// What generated kernels include: the launch of a kernel, and the block reductions that turn
// adjoints every thread adds to one address into one sum per block. Compiled by nvcc it runs on
// the GPU; compiled by a host compiler with ADJOINT_CPU_EXECUTION defined, kernels run on the CPU
// (adjoint/cuda_cpu.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <numeric>
#include <thread>
#include <tuple>
#include <type_traits>

#include "adjoint/cuda_host.h"
#include "adjoint/scratch.h"

namespace adjoint {

#ifndef ADJOINT_CPU_EXECUTION
// kernel<<<grid, block, shmem, stream>>>(args...), as a function the CPU execution also provides.
template <class... Params, class... Args>
cudaError_t launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shmem, cudaStream_t stream, Args... args) {
  kernel<<<grid, block, shmem, stream>>>(args...);
  return cudaGetLastError();
}
#endif

#ifndef ADJOINT_CPU_EXECUTION
// The bytes of dynamic shared memory the kernel was launched with.
__device__ inline unsigned dynamic_shared_bytes() {
  unsigned bytes;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return bytes;
}
// The part-th of `parts` equal slices of the dynamic shared memory, as T elements: what
// `extern __shared__ T name[];` declares is part 0 of 1; a derivative keeps its adjoints after
// the forward's (part 1 of 2).
template <class T>
__device__ T* dynamic_shared(unsigned part, unsigned parts) {
  extern __shared__ __align__(16) unsigned char adjoint_dynamic_shared[];
  return reinterpret_cast<T*>(adjoint_dynamic_shared + part * (dynamic_shared_bytes() / parts));
}
// Lets `kernel` launch with `bytes` of dynamic shared memory, beyond the 48 KiB default too.
template <class... Params>
cudaError_t allow_shared(void (*kernel)(Params...), size_t bytes) {
  if (bytes <= 48 * 1024) return cudaSuccess;
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
}
// Lets `kernel` launch with `bytes` of dynamic shared memory where the device has that much for
// a block beside the kernel's static shared memory; otherwise sets `bytes` to 0, for a kernel
// that works without (it adds where the sums belong instead).
template <class... Params>
cudaError_t shared_if_fits(void (*kernel)(Params...), size_t& bytes) {
  int device = 0, most = 0;
  cudaFuncAttributes attributes{};
  if (cudaError_t e = cudaGetDevice(&device)) return e;
  if (cudaError_t e = cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device)) return e;
  if (cudaError_t e = cudaFuncGetAttributes(&attributes, kernel)) return e;
  if (bytes + attributes.sharedSizeBytes > static_cast<size_t>(most)) bytes = 0;
  return allow_shared(kernel, bytes);
}
#endif
// How many T elements one of `parts` slices of the dynamic shared memory holds.
template <class T>
__device__ unsigned dynamic_shared_size(unsigned parts) {
  return dynamic_shared_bytes() / parts / static_cast<unsigned>(sizeof(T));
}

__device__ inline unsigned thread_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
__device__ inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
__device__ inline unsigned block_rank() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
__device__ inline unsigned grid_blocks() { return gridDim.x * gridDim.y * gridDim.z; }

// The calling thread's lane: warps are made of 32 consecutive thread ranks.
__device__ inline unsigned lane() { return thread_rank() % 32; }

// The threads of the calling thread's warp: 32, fewer in the last warp of a block whose size is
// not a multiple of 32.
__device__ inline unsigned warp_lanes() {
  unsigned after = block_threads() - (thread_rank() - lane());
  return after < 32 ? after : 32u;
}

// The mask of a warp's first `lanes` lanes, as shuffles among them take it.
__device__ inline unsigned lanes_mask(unsigned lanes) { return lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1; }

// The sum of `value` over the first `lanes` lanes of the warp, in lane 0; always added in the
// same order.
template <class T>
__device__ T warp_sum(T value, unsigned lanes) {
  unsigned mask = lanes_mask(lanes), l = lane();
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    T other = __shfl_down_sync(mask, value, offset);
    if (l + offset < lanes) value += other;
  }
  return value;
}

// `value` as the warp's lane `source` holds it. Every thread of the warp calls it together (a
// warp walking its threads' rows in turn, transforms/WarpRows.h).
template <class T>
__device__ T from_lane(T value, unsigned source) {
  unsigned mask = lanes_mask(warp_lanes());
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<T>(__shfl_sync(mask, reinterpret_cast<unsigned long long>(value), source));
  } else if constexpr (std::is_integral_v<T>) {  // bool, char and short move as an int
    using Moved = std::conditional_t<(sizeof(T) > 4), long long, int>;
    return static_cast<T>(__shfl_sync(mask, static_cast<Moved>(value), source));
  } else {
    return __shfl_sync(mask, value, source);
  }
}

// Whether any lane of the warp (32, fewer in a block's last warp) holds `predicate`: the same
// answer in every lane, so that a branch on it keeps the warp together for its shuffles.
__device__ inline bool any_lane(bool predicate) { return __any_sync(lanes_mask(warp_lanes()), predicate) != 0; }

// An adjoint at a column of a row that data picks (a loss's z[labels[row]]), beside the
// additions of a thread, a warp or a block to the rest of its row: kept until those are done,
// then added where nothing else adds to the row any more. at < 0: nothing picked.
template <class T>
struct RowPick {
  long long at = -1;
  T value = 0;
};

// pick = (start + column, value); the column, read from data, must lie in the row [0, width):
// outside it another warp's row would be added to at the same time (the kernel stops instead).
template <class T, class V>
__device__ void keep_row_pick(RowPick<T>& pick, long long start, long long column, long long width, V value) {
  if (column < 0 || column >= width) __trap();
  pick.at = start + column;
  pick.value = static_cast<T>(value);
}

// target[pick.at] += pick.value, after the warp's barrier: every lane's additions to the row
// (or stores: adjoint::Bars::fresh) are done and visible. Called by every thread of the warp.
template <class T>
__device__ void add_row_pick(T* target, const RowPick<T>& pick) {
  __syncwarp(lanes_mask(warp_lanes()));  // (a block's last warp may be short)
  if (pick.at >= 0) target[pick.at] += pick.value;
}

// The same after the block's barrier, for a block's row. Called by every thread of the block.
template <class T>
__device__ void add_block_row_pick(T* target, const RowPick<T>& pick) {
  __syncthreads();
  if (pick.at >= 0) target[pick.at] += pick.value;
}

// A slot per thread of the block in shared memory, where a walk of the warp over its threads'
// rows sums what each row adds to a value of its thread (`Slot`: one array per such value).
template <class T, unsigned Slot>
__device__ T* row_sums() {
  __shared__ T sums[1024];
  return sums;
}

// Adds `value`, which the lane computed for the row of lane `owner`, to that row's slot of `sums`:
// the lanes of one owner (neighbours: owners grow with the lane) sum theirs first, by shuffles,
// and the first of them adds the total. Every thread of the warp calls it together.
template <class T>
__device__ void add_to_row(T* sums, unsigned owner, T value) {
  unsigned lanes = warp_lanes(), mask = lanes_mask(lanes), l = lane();
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    T after = __shfl_down_sync(mask, value, offset);
    unsigned afterOwner = __shfl_down_sync(mask, owner, offset);
    if (l + offset < lanes && afterOwner == owner) value += after;
  }
  unsigned before = __shfl_up_sync(mask, owner, 1);
  if (l == 0 || before != owner) atomicAdd(&sums[thread_rank() - l + owner], value);
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
// must call it. The block's sum is stored as its sum of `slot`, which the last block to finish
// adds into *target with add_block_sums, every block's in the same order (deterministic, and
// free of contention on one address); without storage, the block adds its sum with an atomic.
template <class T, class V>
__device__ void sum_over_threads_into(T* target, V value, BlockSums sums, unsigned slot) {
  V sum = block_sum(value);
  if (thread_rank() != 0) return;
  if (sums.sums)
    sums.sums[size_t{slot} * grid_blocks() + block_rank()] = double(sum);
  else if (target)              // null: the adjoint of an optional buffer not given (nothing was added)
    atomicAdd(target, T(sum));  // (T: a 16-bit storage format, V float)
}

// Whether this block is the last of `count` to arrive at *counter (the same answer in every
// thread of the block). The last resets the counter to zero, ready for the next launch.
__device__ inline bool last_to_arrive(unsigned* counter, unsigned count) {
  __shared__ bool last;
  __threadfence();  // what this block stored is visible before its arrival is counted
  __syncthreads();
  if (thread_rank() == 0) last = atomicInc(counter, count - 1) == count - 1;
  __syncthreads();
  if (last) __threadfence();  // and read after every arrival, by the last block
  return last;
}

// The sum of in[0 .. count), every value added in the same order whatever block runs it; in
// thread 0. Read through volatile: other blocks stored them (no stale L1 lines).
__device__ inline double sum_in_order(const double* in, unsigned count) {
  const volatile double* values = in;
  double sum = 0;
  for (unsigned k = thread_rank(); k < count; k += block_threads()) sum += values[k];
  return block_sum(sum);
}

// Whether this block is the last of the grid to finish its sums. Over more than kGroupBlocks
// blocks, the last block of each group of kGroupBlocks adds the group's sums on the way, so
// that the last block of all adds one sum per group (a short tail, however large the grid).
__device__ inline bool last_block_to_finish(BlockSums s) {
  if (!s.sums) return false;
  unsigned blocks = grid_blocks(), group = block_rank() / kGroupBlocks;
  if (blocks <= kGroupBlocks) return last_to_arrive(&s.arrivals[0], blocks);
  unsigned groups = (blocks + kGroupBlocks - 1) / kGroupBlocks;
  unsigned first = group * kGroupBlocks, in_group = blocks - first < kGroupBlocks ? blocks - first : kGroupBlocks;
  if (!last_to_arrive(&s.arrivals[group], in_group)) return false;
  for (unsigned slot = 0; slot < s.slots; ++slot) {
    double sum = sum_in_order(s.sums + size_t{slot} * blocks + first, in_group);
    if (thread_rank() == 0) s.sums[size_t{s.slots} * blocks + size_t{slot} * groups + group] = sum;
  }
  return last_to_arrive(&s.arrivals[groups], groups);
}

// In the last block to finish: adds the sums of `slot` over the grid into *target.
template <class T>
__device__ void add_block_sums(T* target, BlockSums s, unsigned slot) {
  unsigned blocks = grid_blocks(), groups = (blocks + kGroupBlocks - 1) / kGroupBlocks;
  double sum = blocks <= kGroupBlocks ? sum_in_order(s.sums + size_t{slot} * blocks, blocks)
                                      : sum_in_order(s.sums + size_t{s.slots} * blocks + size_t{slot} * groups, groups);
  if (thread_rank() == 0 && target) *target = T(static_cast<double>(*target) + sum);
}

// Makes *buffer hold at least `count` values, zeroed when it grows (stream-ordered: launches
// before on the stream still read the old buffer).
template <class T>
cudaError_t grow_zeroed(T** buffer, size_t* capacity, size_t count, cudaStream_t stream) {
  if (*capacity >= count) return cudaSuccess;
  cudaError_t e = *buffer ? cudaFreeAsync(*buffer, stream) : cudaSuccess;
  *buffer = nullptr;
  *capacity = 0;
  if (e != cudaSuccess || (e = cudaMallocAsync(buffer, count * sizeof(T), stream)) != cudaSuccess ||
      (e = cudaMemsetAsync(*buffer, 0, count * sizeof(T), stream)) != cudaSuccess)
    return e;
  *capacity = count;
  return cudaSuccess;
}

// The storage of the block sums of a launch of `grid` on `stream`. It is kept from launch to
// launch (the counters are back at zero when a launch ends), one per device, stream and, for
// the default streams, host thread: launches that could overlap never share it. Allocating, the
// first launch on a stream (or one with a larger grid) cannot be captured into a CUDA graph.
inline cudaError_t block_sums(unsigned slots, dim3 grid, cudaStream_t stream, BlockSums* out) {
  struct Storage {
    double* sums = nullptr;
    unsigned* arrivals = nullptr;
    size_t sum_capacity = 0, arrival_capacity = 0;
  };
  static std::mutex mutex;
  // Never destroyed: the storage lives as long as the process (a destructor at exit could run
  // after the CUDA runtime's own teardown).
  static auto& storage = *new std::map<std::tuple<int, cudaStream_t, std::thread::id>, Storage>;
  size_t blocks = size_t{grid.x} * grid.y * grid.z, groups = (blocks + kGroupBlocks - 1) / kGroupBlocks;
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e != cudaSuccess) return e;
  bool shared_by_threads = stream == nullptr || stream == cudaStreamPerThread;
  std::lock_guard<std::mutex> lock(mutex);
  Storage& s = storage[{device, stream, shared_by_threads ? std::this_thread::get_id() : std::thread::id()}];
  if ((e = grow_zeroed(&s.sums, &s.sum_capacity, slots * (blocks + groups), stream)) != cudaSuccess ||
      (e = grow_zeroed(&s.arrivals, &s.arrival_capacity, groups + 1, stream)) != cudaSuccess)
    return e;
  *out = BlockSums{s.sums, s.arrivals, slots};
  return cudaSuccess;
}

// Adds `value` to *address, where every thread of the warp that runs this passes the same
// address: a whole warp adds its sum with one atomic; a partial warp adds lane by lane. (The CPU
// execution does not model divergent warps, so there every lane adds its own.)
template <class T, class V>
__device__ void warp_add(T* address, V value) {
#ifdef ADJOINT_CPU_EXECUTION
  atomicAdd(address, T(value));
  return;
#endif
  if (__activemask() != 0xffffffffu) {
    atomicAdd(address, T(value));
    return;
  }
  value = warp_sum(value, 32u);
  if (thread_rank() % 32 == 0) atomicAdd(address, T(value));  // (T: a 16-bit storage format, V float)
}

// The grid for a kernel that runs the blocks of `grid` in turn (see transforms::runBlocksInTurn):
// twice as many blocks as the GPU holds at once (measured for W1 on the H200: 1x and 2x alike,
// 8x 5% slower), at most grid.x. The CPU execution takes two, so that tests run blocks in turn.
template <class... Params>
dim3 resident_grid(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shmem) {
#ifdef ADJOINT_CPU_EXECUTION
  static_cast<void>(kernel);
  static_cast<void>(block);
  static_cast<void>(shmem);
  return dim3(grid.x < 2 ? grid.x : 2);
#else
  int device = 0, processors = 0, per_processor = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_processor, kernel, int(block.x * block.y * block.z), shmem) !=
          cudaSuccess)
    return grid;
  unsigned resident = 2u * unsigned(processors) * unsigned(per_processor);
  return dim3(resident && resident < grid.x ? resident : grid.x);
#endif
}

// The same for a kernel whose threads sum adjoints by column (their index modulo `columns`) in
// registers: a multiple of the blocks whose threads span whole rows of columns, so that every
// forward block a thread runs puts it on the same column; the forward's grid where none fits.
template <class... Params>
dim3 resident_grid(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shmem, long long columns) {
  dim3 resident = resident_grid(kernel, grid, block, shmem);
  if (columns <= 0 || resident.x >= grid.x) return grid;
  long long step = columns / std::gcd(columns, static_cast<long long>(block.x));
  unsigned blocks = static_cast<unsigned>(resident.x / step * step);
  return blocks == 0 ? grid : dim3(blocks);
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
// y_l = v_(src_l), a gather:  v_bar_j = sum of y_bar_l over the lanes l that read lane j. Where
// the whole warp takes part and reads one lane of each `width` lanes (a broadcast: src the same
// in every lane), that lane's sum is the segment's, added by halving in log2(width) shuffles;
// otherwise each lane gathers from all 32, added in lane order.
template <class T>
__device__ T shfl_sync_adjoint(unsigned mask, T adj, int src, int width = 32) {
  unsigned lane = thread_rank() % 32;
  if (mask == 0xffffffffu && __all_sync(mask, src == __shfl_sync(mask, src, 0))) {
    for (int offset = width / 2; offset > 0; offset /= 2) adj += __shfl_xor_sync(mask, adj, offset, width);
    return lane % unsigned(width) == unsigned(src) % unsigned(width) ? adj : T(0);
  }
  unsigned read = lane - lane % unsigned(width) + unsigned(src) % unsigned(width);
  T sum = T(0);
  for (int k = 0; k < 32; ++k) {
    T other = __shfl_sync(mask, adj, k);
    if (__shfl_sync(mask, read, k) == lane) sum += other;
  }
  return sum;
}

// The first lane of the warp holding the warp's largest `value` (warp_argmax) or its smallest
// (warp_argmin), in every lane; 32 where no lane compares equal to it (NaN). A warp's maximum is
// __shfl_sync(0xffffffffu, v, warp_argmax(v)): its derivative goes to that one lane, through the
// shuffle's. Every lane of the warp calls them.
template <class T, class Before>
__device__ int warp_first_extreme(T value, Before before) {
  T extreme = value;
  for (int offset = 16; offset > 0; offset /= 2) {
    T other = __shfl_xor_sync(0xffffffffu, extreme, offset);
    if (before(other, extreme)) extreme = other;
  }
  int first = value == extreme ? static_cast<int>(thread_rank() % 32) : 32;
  for (int offset = 16; offset > 0; offset /= 2) {
    int other = __shfl_xor_sync(0xffffffffu, first, offset);
    first = other < first ? other : first;
  }
  return first;
}
template <class T>
__device__ int warp_argmax(T value) {
  return warp_first_extreme(value, [](T a, T b) { return a > b; });
}
template <class T>
__device__ int warp_argmin(T value) {
  return warp_first_extreme(value, [](T a, T b) { return a < b; });
}

// The number of times `for (c = a; c > 0; c /= 2)` runs: how Adjoint counts halving loops, so
// that their reverse runs as a counted loop.
__host__ __device__ inline int halvings(long long a) {
  int n = 0;
  for (; a > 0; a /= 2) ++n;
  return n;
}

// The lanes of a vector of W elements of T at `memory` moved in one 128-bit access where W
// elements are 16 bytes and `memory` is aligned to them (as the forward's own vector accesses
// are), one at a time otherwise: generated code reads and writes adjoints as the forward moves
// its packs. Every helper has memory on one side and a local array on the other.
template <class T, int W>
__device__ inline void copy_lanes(T (&to)[W], const T* from) {
#ifndef ADJOINT_CPU_EXECUTION
  if constexpr (sizeof(T) * W == 16)
    if (reinterpret_cast<uintptr_t>(from) % 16 == 0) {
      int4 bits = *reinterpret_cast<const int4*>(from);
      memcpy(to, &bits, sizeof bits);
      return;
    }
#endif
  for (int c = 0; c < W; ++c) to[c] = from[c];
}
template <class T, int W>
__device__ inline void copy_lanes(T* to, const T (&from)[W]) {
#ifndef ADJOINT_CPU_EXECUTION
  if constexpr (sizeof(T) * W == 16)
    if (reinterpret_cast<uintptr_t>(to) % 16 == 0) {
      int4 bits;
      memcpy(&bits, from, sizeof bits);
      *reinterpret_cast<int4*>(to) = bits;
      return;
    }
#endif
  for (int c = 0; c < W; ++c) to[c] = from[c];
}
template <class T, int W>
__device__ inline void add_lanes(T (&to)[W], const T* from) {
  T lanes[W];
  copy_lanes(lanes, from);
  for (int c = 0; c < W; ++c) to[c] += lanes[c];
}
template <class T, int W>
__device__ inline void add_lanes(T* to, const T (&from)[W]) {
  T lanes[W];
  copy_lanes(lanes, to);
  for (int c = 0; c < W; ++c) lanes[c] += from[c];
  copy_lanes(to, lanes);
}
template <int W, class T>
__device__ inline void zero_lanes(T* to) {
  T zeros[W] = {};
  copy_lanes(to, zeros);
}

}  // namespace adjoint
