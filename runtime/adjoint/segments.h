// Adjoints scattered at indices read from data (an embedding's table: wte_bar[inp[bt] * C + c]),
// summed in a fixed order for --deterministic. Each thread records what it adds as a (key, value)
// pair in its own slot instead of an atomicAdd; the launcher then sorts the pairs by key, stably
// (slots of one key stay in slot order), and adds each key's values in that order, one thread
// per key. The same inputs give bitwise the same gradient, however the threads were scheduled.
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

// A slot no thread recorded a pair in (the launcher fills every key with it): sorts last.
constexpr unsigned long long kNoSegment = ~0ULL;

// keys[slot], values[slot] = index, value; or, for a kernel launched without slots, an atomicAdd
// to target[index]. (The target comes with its index, not as &target[index]: an optional buffer
// not given is null, and an offset from null is undefined even where nothing is stored.)
template <class P, class T>
__device__ void add_to_segment(unsigned long long* keys, P* values, long long slot, T* target, long long index,
                               P value) {
  if (keys) {
    keys[slot] = static_cast<unsigned long long>(index);
    values[slot] = value;
  } else {
    atomicAdd(target + index, T(value));  // (T: a 16-bit storage format, P float)
  }
}

namespace detail {

// target[key] += the values of the key's run in the sorted pairs, in order: the run's first
// position does the sum.
template <class T, class P>
__global__ void add_runs(T* target, const unsigned long long* keys, const P* values, long long count) {
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
cudaError_t add_segments(T* target, const unsigned long long* keys, const P* values, long long count,
                         cudaStream_t stream) {
  if (count <= 0 || !target) return cudaSuccess;  // null: an optional buffer not given
  Scratch scratch(stream);
  unsigned long long* sorted_keys = scratch.take<unsigned long long>(count);
  P* sorted_values = scratch.take<P>(count);
  size_t bytes = 0;
  if (cudaError_t e = cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, sorted_keys, values, sorted_values, count,
                                                      0, 64, stream))
    return e;
  void* work = scratch.take<unsigned char>(static_cast<long long>(bytes));
  if (!scratch) return scratch.status();
  if (cudaError_t e =
          cub::DeviceRadixSort::SortPairs(work, bytes, keys, sorted_keys, values, sorted_values, count, 0, 64, stream))
    return e;
  unsigned threads = 256;
  return launch(detail::add_runs<T, P>, dim3(static_cast<unsigned>((count + threads - 1) / threads)), dim3(threads), 0,
                stream, target, static_cast<const unsigned long long*>(sorted_keys),
                static_cast<const P*>(sorted_values), count);
}
#else
// The CPU execution's: the same order (by key, equal keys in slot order, as the stable radix sort
// leaves them) and the same sums, on the host. The slot breaks ties instead of std::stable_sort,
// whose libstdc++ 12 temporary buffer Clang flags as deprecated under -Werror.
template <class T, class P>
cudaError_t add_segments(T* target, const unsigned long long* keys, const P* values, long long count, cudaStream_t) {
  if (count <= 0 || !target) return cudaSuccess;
  std::vector<long long> order(static_cast<size_t>(count));
  std::iota(order.begin(), order.end(), 0LL);
  std::sort(order.begin(), order.end(),
            [&](long long a, long long b) { return keys[a] < keys[b] || (keys[a] == keys[b] && a < b); });
  std::vector<unsigned long long> sorted_keys(order.size());
  std::vector<P> sorted_values(order.size());
  for (size_t i = 0; i < order.size(); ++i) sorted_keys[i] = keys[order[i]], sorted_values[i] = values[order[i]];
  unsigned threads = 256;
  return launch(detail::add_runs<T, P>, dim3(static_cast<unsigned>((count + threads - 1) / threads)), dim3(threads), 0,
                nullptr, target, static_cast<const unsigned long long*>(sorted_keys.data()),
                static_cast<const P*>(sorted_values.data()), count);
}
#endif

}  // namespace adjoint
