// Adjoints scattered at indices read from data (an embedding's table: wte_bar[inp[bt] * C + c]),
// summed in a fixed order for --deterministic. Each thread records what it adds as a (key, value)
// pair in its own slot instead of an atomicAdd; the launcher then sorts the pairs by key, stably
// (slots of one key stay in slot order), and adds each key's values in that order, one thread
// per key. The same inputs give bitwise the same gradient, however the threads were scheduled.
// Keys are 32 bits (a target of up to 2^32 - 1 elements): the radix sort makes four passes over
// them, not eight; a larger index stops the kernel (__trap) rather than be added out of order.
#pragma once

#include <algorithm>

#include "adjoint/cuda.h"

#ifndef ADJOINT_CPU_EXECUTION
#include <cub/device/device_radix_sort.cuh>
#else
#include <numeric>
#include <vector>
#endif

namespace adjoint {

// The index a pair is recorded at.
using SegmentKey = unsigned int;  // (generated code spells it)
// A slot no thread recorded a pair in (the launcher fills every key with it): sorts last.
constexpr SegmentKey kNoSegment = ~0u;

// keys[slot], values[slot] = index, value; or, for a kernel launched without slots, an atomicAdd
// to target[index]. (The target comes with its index, not as &target[index]: an optional buffer
// not given is null, and an offset from null is undefined even where nothing is stored.)
template <class P, class T>
__device__ void add_to_segment(SegmentKey* keys, P* values, long long slot, T* target, long long index, P value) {
  if (keys) {
    if (index < 0 || index >= static_cast<long long>(kNoSegment)) __trap();
    keys[slot] = static_cast<SegmentKey>(index);
    values[slot] = value;
  } else {
    atomicAdd(target + index, T(value));  // (T: a 16-bit storage format, P float)
  }
}

namespace detail {

// target[key] += the values of the key's run in the sorted pairs, in order: the run's first
// position does the sum.
template <class T, class P>
__global__ void add_runs(T* target, const SegmentKey* keys, const P* values, long long count) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= count || keys[i] == kNoSegment || (i > 0 && keys[i - 1] == keys[i])) return;
  P sum = 0;
  for (long long j = i; j < count && keys[j] == keys[i]; ++j) sum += values[j];
  target[keys[i]] = T(static_cast<P>(target[keys[i]]) + sum);  // (T: a 16-bit storage format, P float)
}

}  // namespace detail

#ifndef ADJOINT_CPU_EXECUTION
// target[k] += the values recorded at key k, summed in slot order, for the `count` slots.
template <class T, class P>
cudaError_t add_segments(T* target, const SegmentKey* keys, const P* values, long long count, cudaStream_t stream) {
  if (count <= 0 || !target) return cudaSuccess;  // null: an optional buffer not given
  Scratch scratch(stream);
  SegmentKey* sorted_keys = scratch.take<SegmentKey>(count);
  P* sorted_values = scratch.take<P>(count);
  size_t bytes = 0;
  if (cudaError_t e = cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, sorted_keys, values, sorted_values, count,
                                                      0, 32, stream))
    return e;
  void* work = scratch.take<unsigned char>(static_cast<long long>(bytes));
  if (!scratch) return scratch.status();
  if (cudaError_t e =
          cub::DeviceRadixSort::SortPairs(work, bytes, keys, sorted_keys, values, sorted_values, count, 0, 32, stream))
    return e;
  unsigned threads = 256;
  return launch(detail::add_runs<T, P>, dim3(static_cast<unsigned>((count + threads - 1) / threads)), dim3(threads), 0,
                stream, target, static_cast<const SegmentKey*>(sorted_keys), static_cast<const P*>(sorted_values),
                count);
}
#else
// The CPU execution's: the same order (by key, equal keys in slot order, as the stable radix sort
// leaves them) and the same sums, on the host. The slot breaks ties instead of std::stable_sort,
// whose libstdc++ 12 temporary buffer Clang flags as deprecated under -Werror.
template <class T, class P>
cudaError_t add_segments(T* target, const SegmentKey* keys, const P* values, long long count, cudaStream_t) {
  if (count <= 0 || !target) return cudaSuccess;
  std::vector<long long> order(static_cast<size_t>(count));
  std::iota(order.begin(), order.end(), 0LL);
  std::sort(order.begin(), order.end(),
            [&](long long a, long long b) { return keys[a] < keys[b] || (keys[a] == keys[b] && a < b); });
  std::vector<SegmentKey> sorted_keys(order.size());
  std::vector<P> sorted_values(order.size());
  for (size_t i = 0; i < order.size(); ++i) sorted_keys[i] = keys[order[i]], sorted_values[i] = values[order[i]];
  unsigned threads = 256;
  return launch(detail::add_runs<T, P>, dim3(static_cast<unsigned>((count + threads - 1) / threads)), dim3(threads), 0,
                nullptr, target, static_cast<const SegmentKey*>(sorted_keys.data()),
                static_cast<const P*>(sorted_values.data()), count);
}
#endif

}  // namespace adjoint
