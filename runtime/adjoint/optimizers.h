// The updates of a training step (adjoint train-step): each parameter updated in place from its
// gradient, one grid-stride kernel per parameter. Conventions as PyTorch's SGD (with momentum)
// and AdamW.
#pragma once

#include <cmath>

#include "adjoint/buffers.h"

namespace adjoint {

namespace detail {

// p -= lr g
template <class T>
__global__ void sgd_kernel(T* p, const T* g, long long n, T lr) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
    p[i] -= lr * g[i];
}

// v = mu v + g;  p -= lr v
template <class T>
__global__ void momentum_kernel(T* p, const T* g, T* v, long long n, T lr, T mu) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x) {
    v[i] = mu * v[i] + g[i];
    p[i] -= lr * v[i];
  }
}

// p -= lr wd p;  m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2;
// p -= lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
template <class T>
__global__ void adamw_kernel(T* p, const T* g, T* m, T* v, long long n, T lr, T b1, T b2, T eps, T wd, T c1, T c2) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x) {
    p[i] -= lr * wd * p[i];
    m[i] = b1 * m[i] + (T(1) - b1) * g[i];
    v[i] = b2 * v[i] + (T(1) - b2) * g[i] * g[i];
    p[i] -= lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
  }
}

}  // namespace detail

template <class T>
cudaError_t sgd(T* p, const T* g, long long n, T lr, cudaStream_t stream) {
  return detail::launch_over(n, stream, detail::sgd_kernel<T>, p, g, n, lr);
}

template <class T>
cudaError_t momentum(T* p, const T* g, T* velocity, long long n, T lr, T mu, cudaStream_t stream) {
  return detail::launch_over(n, stream, detail::momentum_kernel<T>, p, g, velocity, n, lr, mu);
}

// `step`: the number of this update, from 1 (the bias corrections of the moments).
template <class T>
cudaError_t adamw(T* p, const T* g, T* m, T* v, long long n, T lr, T beta1, T beta2, T eps, T weight_decay, int step,
                  cudaStream_t stream) {
  T c1 = T(1) - T(std::pow(double(beta1), step)), c2 = T(1) - T(std::pow(double(beta2), step));
  return detail::launch_over(n, stream, detail::adamw_kernel<T>, p, g, m, v, n, lr, beta1, beta2, eps, weight_decay, c1,
                             c2);
}

}  // namespace adjoint
