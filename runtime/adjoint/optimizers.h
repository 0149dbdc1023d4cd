// The updates of a training step (adjoint train-step): every parameter updated in place from its
// gradient, all in one launch (blockIdx.y picks the parameter). Conventions as PyTorch's SGD (with
// momentum) and AdamW.
#pragma once

#include <cmath>

#include "adjoint/buffers.h"

namespace adjoint {

// One trained buffer: the parameter p, its gradient g, the optimizer's state (momentum's velocity;
// AdamW's m and v; none for SGD) and its length.
template <class T>
struct Update {
  T* p = nullptr;
  const T* g = nullptr;
  T* s1 = nullptr;
  T* s2 = nullptr;
  long long n = 0;
  Update() = default;
  Update(T* p, const T* g, long long n) : p(p), g(g), n(n) {}
  Update(T* p, const T* g, T* velocity, long long n) : p(p), g(g), s1(velocity), n(n) {}
  Update(T* p, const T* g, T* m, T* v, long long n) : p(p), g(g), s1(m), s2(v), n(n) {}
};

namespace detail {

// p -= lr g
template <class T>
__global__ void sgd_kernel(Items<Update<T>> updates, T lr) {
  const Update<T> u = updates.item[blockIdx.y];
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < u.n; i += (long long)blockDim.x * gridDim.x)
    u.p[i] -= lr * u.g[i];
}

// v = mu v + g;  p -= lr v
template <class T>
__global__ void momentum_kernel(Items<Update<T>> updates, T lr, T mu) {
  const Update<T> u = updates.item[blockIdx.y];
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < u.n;
       i += (long long)blockDim.x * gridDim.x) {
    u.s1[i] = mu * u.s1[i] + u.g[i];
    u.p[i] -= lr * u.s1[i];
  }
}

// p -= lr wd p;  m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2;
// p -= lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
template <class T>
__global__ void adamw_kernel(Items<Update<T>> updates, T lr, T b1, T b2, T eps, T wd, T c1, T c2) {
  const Update<T> u = updates.item[blockIdx.y];
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < u.n;
       i += (long long)blockDim.x * gridDim.x) {
    u.p[i] -= lr * wd * u.p[i];
    u.s1[i] = b1 * u.s1[i] + (T(1) - b1) * u.g[i];
    u.s2[i] = b2 * u.s2[i] + (T(1) - b2) * u.g[i] * u.g[i];
    u.p[i] -= lr * (u.s1[i] / c1) / (std::sqrt(u.s2[i] / c2) + eps);
  }
}

}  // namespace detail

template <class T, class... More>
cudaError_t sgd_all(cudaStream_t stream, T lr, Update<T> first, More... more) {
  return detail::launch_per_item(stream, {first, Update<T>(more)...}, detail::sgd_kernel<T>, lr);
}

template <class T, class... More>
cudaError_t momentum_all(cudaStream_t stream, T lr, T mu, Update<T> first, More... more) {
  return detail::launch_per_item(stream, {first, Update<T>(more)...}, detail::momentum_kernel<T>, lr, mu);
}

// `step`: the number of this update, from 1 (the bias corrections of the moments).
template <class T, class... More>
cudaError_t adamw_all(cudaStream_t stream, T lr, T beta1, T beta2, T eps, T weight_decay, int step, Update<T> first,
                      More... more) {
  T c1 = T(1) - T(std::pow(double(beta1), step)), c2 = T(1) - T(std::pow(double(beta2), step));
  return detail::launch_per_item(stream, {first, Update<T>(more)...}, detail::adamw_kernel<T>, lr, beta1, beta2, eps,
                                 weight_decay, c1, c2);
}

}  // namespace adjoint
