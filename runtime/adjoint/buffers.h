// Elementwise work on whole buffers that generated host code launches: filling buffers, and the
// pullback and tangent of a device-to-device copy.
#pragma once

#include <initializer_list>

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

// from_bar += to_bar;  to_bar = 0
template <class T>
__global__ void copy_vjp_kernel(T* from_bar, T* to_bar, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x) {
    from_bar[i] += to_bar[i];
    to_bar[i] = T(0);
  }
}

}  // namespace detail

// One buffer of a fill_all: x[0 .. n) = value.
template <class T>
struct Fill {
  T* x = nullptr;
  long long n = 0;
  T value = T(0);
  Fill() = default;
  Fill(T* x, long long n, T value) : x(x), n(n), value(value) {}
};

namespace detail {

// Up to this many buffers per launch: the kernel takes them by value, in its parameter space.
constexpr int kBuffersPerLaunch = 32;

template <class Item>
struct Items {
  Item item[kBuffersPerLaunch];
  int count = 0;
};

// One launch per kBuffersPerLaunch items: blockIdx.y picks the item, blockIdx.x and the grid stride
// run over its n elements (enough blocks for the longest, no more than fill the GPU).
template <class Item, class... Params, class... Args>
cudaError_t launch_per_item(cudaStream_t stream, std::initializer_list<Item> items, void (*kernel)(Params...),
                            Args... args) {
  cudaError_t status = cudaSuccess;
  for (auto it = items.begin(); it != items.end() && status == cudaSuccess;) {
    Items<Item> chunk;
    long long longest = 0;
    for (; it != items.end() && chunk.count < kBuffersPerLaunch; ++it) {
      chunk.item[chunk.count++] = *it;
      longest = longest > it->n ? longest : it->n;
    }
    long long blocks = (longest + 255) / 256;
    if (blocks > 0)
      status = launch(kernel, dim3(static_cast<unsigned>(blocks < 1024 ? blocks : 1024), chunk.count), dim3(256), 0,
                      stream, chunk, args...);
  }
  return status;
}

template <class T>
__global__ void fill_all_kernel(Items<Fill<T>> fills) {
  const Fill<T> f = fills.item[blockIdx.y];
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < f.n; i += (long long)blockDim.x * gridDim.x)
    f.x[i] = f.value;
}

}  // namespace detail

// Fills each buffer with its value, all in one launch (a training step's adjoints and seed).
template <class T, class... More>
cudaError_t fill_all(cudaStream_t stream, Fill<T> first, More... more) {
  return detail::launch_per_item(stream, {first, Fill<T>(more)...}, detail::fill_all_kernel<T>);
}

// Whether elements [a, a + a_count) and [b, b + b_count) of one buffer overlap: two parameters of
// a launch that point into one buffer need their adjoints kept apart only where they do.
inline bool overlap(long long a, long long a_count, long long b, long long b_count) {
  return a < b + b_count && b < a + a_count;
}

// The pullback of `to = from` over n elements: the adjoint of `to` moves into `from`'s (to's
// old values were overwritten: their adjoint is zero).
template <class T>
cudaError_t copy_vjp(T* from_bar, T* to_bar, long long n, cudaStream_t stream) {
  return detail::launch_over(n, stream, detail::copy_vjp_kernel<T>, from_bar, to_bar, n);
}

}  // namespace adjoint
