// Adjoints added at a thread's index modulo a width (bias_bar[i % C] += v, the gradient of a
// bias broadcast over rows): every thread adds into its own slot of `parts`, laid out as rows of
// `columns`, and the launcher adds the column sums into the target afterwards. Threads of many
// blocks share each address, so atomics on it contend; the column sums read the slots once, in
// a fixed order (the same inputs give bitwise the same gradient).
#pragma once

#include <algorithm>

#include "adjoint/cuda.h"

namespace adjoint {

// parts[slot] += value, or, for a kernel launched without parts, an atomicAdd to target[index].
// (The target is passed with its index, not as &target[index]: an optional buffer not given is
// null, and an offset from null is undefined even where nothing is stored.)
template <class P, class T>
__device__ void add_to_column(P* parts, long long slot, T* target, long long index, P value) {
  if (parts)
    parts[slot] += value;
  else
    atomicAdd(target + index, T(value));  // (T: a 16-bit storage format, P float)
}

namespace detail {

// partials[chunk * columns + j] = the sum of parts[r * columns + j] over the chunk's rows, in order.
template <class T>
__global__ void column_partials(const T* parts, long long count, long long columns, long long rows_per_chunk,
                                T* partials) {
  long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (j >= columns) return;
  long long first = blockIdx.y * rows_per_chunk;
  T sum = 0;
  for (long long r = first; r < first + rows_per_chunk && r * columns + j < count; ++r) sum += parts[r * columns + j];
  partials[blockIdx.y * columns + j] = sum;
}

// target[j] += the chunks' partial sums of column j, in order.
template <class T, class P>
__global__ void add_partials(T* target, const P* partials, long long columns, long long chunks) {
  long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (j >= columns) return;
  P sum = 0;
  for (long long c = 0; c < chunks; ++c) sum += partials[c * columns + j];
  target[j] = T(static_cast<P>(target[j]) + sum);  // (T: a 16-bit storage format, P float)
}

}  // namespace detail

// target[j] += the sum of parts[k] over the k < count with k % columns == j: in chunks of rows
// (enough threads to read at full bandwidth), then the chunks' sums.
template <class T, class P>
cudaError_t add_column_sums(T* target, const P* parts, long long count, long long columns, cudaStream_t stream) {
  if (count <= 0 || columns <= 0 || !target) return cudaSuccess;  // null: an optional buffer not given
  long long rows = (count + columns - 1) / columns;
  unsigned width = columns < 256 ? unsigned((columns + 31) / 32 * 32) : 256u;
  long long column_blocks = (columns + width - 1) / width;
  long long chunks = std::min<long long>(rows, std::max<long long>(1, std::min<long long>(256, 2048 / column_blocks)));
  long long rows_per_chunk = (rows + chunks - 1) / chunks;
  chunks = (rows + rows_per_chunk - 1) / rows_per_chunk;
  Scratch scratch(stream);
  P* partials = scratch.take<P>(chunks * columns);
  if (!scratch) return scratch.status();
  cudaError_t e = launch(detail::column_partials<P>, dim3(unsigned(column_blocks), unsigned(chunks)), dim3(width), 0,
                         stream, parts, count, columns, rows_per_chunk, partials);
  if (e != cudaSuccess) return e;
  return launch(detail::add_partials<T, P>, dim3(unsigned(column_blocks)), dim3(width), 0, stream, target,
                static_cast<const P*>(partials), columns, chunks);
}

}  // namespace adjoint
