// Adjoints scattered at indices read from data (an embedding's table: wte_bar[inp[bt] * C + c]),
// summed in a fixed order for --deterministic. Each thread records what it adds as a (key, value)
// pair in its own slot instead of an atomicAdd; the launcher then sorts the pairs by key, stably
// (slots of one key stay in slot order), and adds each key's values in that order, one thread
// per key. The same inputs give bitwise the same gradient, however the threads were scheduled.
// Keys are 32 bits (a target of up to 2^32 - 1 elements): the radix sort makes four passes over
// them, not eight; a larger index stops the kernel (__trap) rather than be added out of order.
//
// Row segments: where the index is a row of the target picked per row of an element the thread
// owns (an embedding: wte_bar[inp[bt] * C + c] beside the thread's out_bar[bt * C + c]), the value
// is kept at that element's own slot and the row's key once per row; the launcher sorts the rows
// by key (8192 rows instead of 6.3M elements) and adds each key's rows column by column, in row
// order (llm.c's encoder_backward).
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

// An addition target[index] += value where index = key * width + column and the thread owns the
// element at = row * width + column of a layout in rows of `width` (the same column): the row's
// key in row_keys[row], the value added into values[at], element_keys[at] the key too, which the
// launcher's sum checks against the row's (a row whose threads picked different keys stops it,
// as does a column that differs, or a row beyond the `rows` the launcher provided). A kernel
// launched without slots makes an atomicAdd.
template <class P, class T>
__device__ void add_to_row_segment(SegmentKey* row_keys, SegmentKey* element_keys, P* values, long long rows, T* target,
                                   long long at, long long index, long long width, P value) {
  if (!row_keys) {
    atomicAdd(target + index, T(value));  // (T: a 16-bit storage format, P float)
    return;
  }
  long long row = at / width, key = index / width;
  if (at < 0 || index < 0 || at % width != index % width || row >= rows || key >= static_cast<long long>(kNoSegment))
    __trap();
  row_keys[row] = static_cast<SegmentKey>(key);  // (every thread of the row stores the same key)
  if (element_keys[at] == kNoSegment) {
    element_keys[at] = static_cast<SegmentKey>(key);
    values[at] = value;
  } else {
    if (element_keys[at] != key) __trap();
    values[at] += value;
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

// For the rows sorted by key (rows[p] the row at position p), target[key * width + column] += the
// values of the key's rows at the column, in row order: the thread of a run's first position and
// a column does the sum, over the elements a thread recorded (their element key not kNoSegment).
template <class T, class P>
__global__ void add_row_runs(T* target, const SegmentKey* keys, const unsigned* rows, long long count,
                             const SegmentKey* element_keys, const P* values, long long width) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long p = i / width, column = i % width;
  if (p >= count || keys[p] == kNoSegment || (p > 0 && keys[p - 1] == keys[p])) return;
  P sum = 0;
  bool added = false;
  for (long long j = p; j < count && keys[j] == keys[p]; ++j) {
    long long at = rows[j] * width + column;
    if (element_keys[at] == kNoSegment) continue;
    if (element_keys[at] != keys[p]) __trap();  // the row's threads picked different keys
    sum += values[at];
    added = true;
  }
  if (added) {
    long long index = keys[p] * width + column;
    target[index] = T(static_cast<P>(target[index]) + sum);  // (T: a 16-bit storage format, P float)
  }
}

// rows[i] = i: the row numbers the sort carries along with the rows' keys.
template <class I>
__global__ void count_rows(I* rows, long long count) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < count) rows[i] = static_cast<I>(i);
}

}  // namespace detail

#ifndef ADJOINT_CPU_EXECUTION
namespace detail {

// The pairs sorted by key, stably (CUB's radix sort over the 32 bits), its work space from `scratch`.
template <class V>
cudaError_t sort_pairs(Scratch& scratch, const SegmentKey* keys, SegmentKey* sorted_keys, const V* values,
                       V* sorted_values, long long count, cudaStream_t stream) {
  size_t bytes = 0;
  if (cudaError_t e = cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, sorted_keys, values, sorted_values, count,
                                                      0, 32, stream))
    return e;
  void* work = scratch.take<unsigned char>(static_cast<long long>(bytes));
  if (!scratch) return scratch.status();
  return cub::DeviceRadixSort::SortPairs(work, bytes, keys, sorted_keys, values, sorted_values, count, 0, 32, stream);
}

}  // namespace detail

// target[k] += the values recorded at key k, summed in slot order, for the `count` slots.
template <class T, class P>
cudaError_t add_segments(T* target, const SegmentKey* keys, const P* values, long long count, cudaStream_t stream) {
  if (count <= 0 || !target) return cudaSuccess;  // null: an optional buffer not given
  Scratch scratch(stream);
  SegmentKey* sorted_keys = scratch.take<SegmentKey>(count);
  P* sorted_values = scratch.take<P>(count);
  if (cudaError_t e = detail::sort_pairs(scratch, keys, sorted_keys, values, sorted_values, count, stream)) return e;
  unsigned threads = 256;
  return launch(detail::add_runs<T, P>, dim3(static_cast<unsigned>((count + threads - 1) / threads)), dim3(threads), 0,
                stream, target, static_cast<const SegmentKey*>(sorted_keys), static_cast<const P*>(sorted_values),
                count);
}

// Row segments: target[key * width + column] += the values the threads recorded, each key's rows
// summed column by column in row order, for `rows` rows of `width` elements.
template <class T, class P>
cudaError_t add_row_segments(T* target, const SegmentKey* row_keys, const SegmentKey* element_keys, const P* values,
                             long long rows, long long width, cudaStream_t stream) {
  if (rows <= 0 || width <= 0 || !target) return cudaSuccess;
  Scratch scratch(stream);
  unsigned* order = scratch.take<unsigned>(rows);
  SegmentKey* sorted_keys = scratch.take<SegmentKey>(rows);
  unsigned* sorted_rows = scratch.take<unsigned>(rows);
  if (!scratch) return scratch.status();
  unsigned threads = 256;
  if (cudaError_t e = launch(detail::count_rows<unsigned>, dim3(static_cast<unsigned>((rows + threads - 1) / threads)),
                             dim3(threads), 0, stream, order, rows))
    return e;
  if (cudaError_t e = detail::sort_pairs(scratch, row_keys, sorted_keys, static_cast<const unsigned*>(order),
                                         sorted_rows, rows, stream))
    return e;
  return launch(detail::add_row_runs<T, P>, dim3(static_cast<unsigned>((rows * width + threads - 1) / threads)),
                dim3(threads), 0, stream, target, static_cast<const SegmentKey*>(sorted_keys),
                static_cast<const unsigned*>(sorted_rows), rows, element_keys, values, width);
}
#else
namespace detail {

// The CPU execution's sort: the positions 0 .. count - 1 in the order the stable radix sort leaves
// them (by key, equal keys in position order). The position breaks ties instead of
// std::stable_sort, whose libstdc++ 12 temporary buffer Clang flags as deprecated under -Werror.
template <class I>
std::vector<I> order_by_key(const SegmentKey* keys, long long count) {
  std::vector<I> order(static_cast<size_t>(count));
  std::iota(order.begin(), order.end(), I(0));
  std::sort(order.begin(), order.end(), [&](I a, I b) { return keys[a] < keys[b] || (keys[a] == keys[b] && a < b); });
  return order;
}

}  // namespace detail

// The CPU execution's: the same order and the same sums, on the host.
template <class T, class P>
cudaError_t add_segments(T* target, const SegmentKey* keys, const P* values, long long count, cudaStream_t) {
  if (count <= 0 || !target) return cudaSuccess;
  std::vector<long long> order = detail::order_by_key<long long>(keys, count);
  std::vector<SegmentKey> sorted_keys(order.size());
  std::vector<P> sorted_values(order.size());
  for (size_t i = 0; i < order.size(); ++i) sorted_keys[i] = keys[order[i]], sorted_values[i] = values[order[i]];
  unsigned threads = 256;
  return launch(detail::add_runs<T, P>, dim3(static_cast<unsigned>((count + threads - 1) / threads)), dim3(threads), 0,
                nullptr, target, static_cast<const SegmentKey*>(sorted_keys.data()),
                static_cast<const P*>(sorted_values.data()), count);
}

// The CPU execution's row segments: the rows in the sort's order, the same sums.
template <class T, class P>
cudaError_t add_row_segments(T* target, const SegmentKey* row_keys, const SegmentKey* element_keys, const P* values,
                             long long rows, long long width, cudaStream_t) {
  if (rows <= 0 || width <= 0 || !target) return cudaSuccess;
  std::vector<unsigned> order = detail::order_by_key<unsigned>(row_keys, rows);
  std::vector<SegmentKey> sorted_keys(order.size());
  for (size_t i = 0; i < order.size(); ++i) sorted_keys[i] = row_keys[order[i]];
  unsigned threads = 256;
  return launch(detail::add_row_runs<T, P>, dim3(static_cast<unsigned>((rows * width + threads - 1) / threads)),
                dim3(threads), 0, nullptr, target, static_cast<const SegmentKey*>(sorted_keys.data()),
                static_cast<const unsigned*>(order.data()), rows, element_keys, values, width);
}
#endif

}  // namespace adjoint
