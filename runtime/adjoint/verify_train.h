// What the harness of `adjoint check --params ...` uses to check a training step against its
// unfused reference: buffers holding the same random values twice (one copy for the step, one
// for the reference), the optimizers' updates computed on the host from the reference gradient,
// and the comparison of what the two leave in each buffer.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "adjoint/cuda_host.h"

namespace adjoint {

template <class T>
std::vector<T> fetch(const T* device, size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

// The same random values in [lo, hi] in two device buffers: `step` for the training step,
// `reference` for the reference.
template <class T>
struct TwinBuffer {
  std::vector<T> host;
  T *step = nullptr, *reference = nullptr;
  TwinBuffer(size_t size, double lo, double hi, std::mt19937& rng) : host(size) {
    std::uniform_real_distribution<double> u(lo, hi);
    for (T& x : host) x = static_cast<T>(std::is_integral<T>::value ? std::floor(u(rng)) : u(rng));
    for (T** d : {&step, &reference}) {
      cudaMalloc(d, std::max<size_t>(size, 1) * sizeof(T));
      cudaMemcpy(*d, host.data(), size * sizeof(T), cudaMemcpyHostToDevice);
    }
  }
  TwinBuffer(const TwinBuffer&) = delete;
  TwinBuffer& operator=(const TwinBuffer&) = delete;
  ~TwinBuffer() {
    cudaFree(step);
    cudaFree(reference);
  }
};

// A zeroed device array of n values (an adjoint), freed with the object.
template <class T>
struct DeviceArray {
  T* data = nullptr;
  explicit DeviceArray(size_t n) {
    std::vector<T> zero(std::max<size_t>(n, 1), T(0));
    cudaMalloc(&data, zero.size() * sizeof(T));
    cudaMemcpy(data, zero.data(), zero.size() * sizeof(T), cudaMemcpyHostToDevice);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { cudaFree(data); }
};

// The updates of adjoint/optimizers.h, element by element on the host.
template <class T>
void sgd_reference(std::vector<T>& p, const std::vector<T>& g, T lr) {
  for (size_t i = 0; i < p.size(); ++i) p[i] -= lr * g[i];
}
template <class T>
void momentum_reference(std::vector<T>& p, const std::vector<T>& g, std::vector<T> velocity, T lr, T momentum) {
  for (size_t i = 0; i < p.size(); ++i) {
    velocity[i] = momentum * velocity[i] + g[i];
    p[i] -= lr * velocity[i];
  }
}
template <class T>
void adamw_reference(std::vector<T>& p, const std::vector<T>& g, std::vector<T> m, std::vector<T> v, T lr, T beta1,
                     T beta2, T eps, T weight_decay, int step) {
  // The bias corrections as adamw_all rounds them: the powers in double, then to T.
  T c1 = T(1) - T(std::pow(double(beta1), step)), c2 = T(1) - T(std::pow(double(beta2), step));
  for (size_t i = 0; i < p.size(); ++i) {
    p[i] -= lr * weight_decay * p[i];
    m[i] = beta1 * m[i] + (T(1) - beta1) * g[i];
    v[i] = beta2 * v[i] + (T(1) - beta2) * g[i] * g[i];
    p[i] -= lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
  }
}

// Whether `got` is `want` within `tolerance` relative to want's largest magnitude (at least 1);
// prints the largest difference. A NaN on either side is a difference of NaN: never the same.
template <class T>
bool same_values(const char* name, const std::vector<T>& got, const std::vector<T>& want, double tolerance) {
  double worst = 0, scale = 1e-30;
  for (size_t i = 0; i < want.size(); ++i) {
    double difference = std::fabs(double(got[i]) - double(want[i]));
    if (!(difference <= worst)) worst = difference;  // keeps a NaN, which std::max would drop
    scale = std::max(scale, std::fabs(double(want[i])));
  }
  bool ok = worst <= tolerance * std::max(1.0, scale);
  std::printf("%-14s max |step - reference| %.3e (largest value %.3e)%s\n", name, worst, scale, ok ? "" : "  FAILED");
  return ok;
}

}  // namespace adjoint
