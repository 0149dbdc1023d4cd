// Elementwise work on whole buffers that generated host code launches: filling a buffer, and the
// pullback and tangent of a device-to-device copy.
#pragma once

#include "adjoint/cuda.h"

namespace adjoint {

namespace detail {

// A grid-stride launch over n elements: enough blocks to fill the GPU, no more.
template <class... Params, class... Args>
cudaError_t launch_over(long long n, cudaStream_t stream, void (*kernel)(Params...), Args... args) {
  if (n <= 0) return cudaSuccess;
  long long blocks = (n + 255) / 256;
  return launch(kernel, dim3(static_cast<unsigned>(blocks < 1024 ? blocks : 1024)), dim3(256), 0, stream, args...);
}

template <class T>
__global__ void fill_kernel(T* x, long long n, T value) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
    x[i] = value;
}

// from_bar += to_bar;  to_bar = 0
template <class T>
__global__ void copy_vjp_kernel(T* from_bar, T* to_bar, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x) {
    from_bar[i] += to_bar[i];
    to_bar[i] = T(0);
  }
}

}  // namespace detail

// x[0 .. n) = value
template <class T>
cudaError_t fill(T* x, long long n, T value, cudaStream_t stream) {
  return detail::launch_over(n, stream, detail::fill_kernel<T>, x, n, value);
}

// The pullback of `to = from` over n elements: the adjoint of `to` moves into `from`'s (to's
// old values were overwritten: their adjoint is zero).
template <class T>
cudaError_t copy_vjp(T* from_bar, T* to_bar, long long n, cudaStream_t stream) {
  return detail::launch_over(n, stream, detail::copy_vjp_kernel<T>, from_bar, to_bar, n);
}

}  // namespace adjoint
