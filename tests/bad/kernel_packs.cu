// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: kernel_packs.cu:37:3: error: a pack of 16-bit values is not supported yet
// CHECK: note: view the buffer two elements at a time (reinterpret_cast<const __nv_bfloat162*>(x)[i]), or one element at a time
// CHECK: kernel_packs.cu:38:24: error: this value of a pack is not supported
// CHECK: note: load a pack from a buffer (x128 p = load128(x + i)), read and assign its elements (p[k]) and store it into a buffer (store128(y + i, p))
// CHECK: kernel_packs.cu:40:14: error: only the elements of a local pack can be read and assigned here
#include <cuda_bf16.h>
#include <cstring>

template <class ElementType>
struct alignas(16) Packed128 {
  Packed128() = default;
  __device__ explicit Packed128(int4 bits) { memcpy(&payload, &bits, sizeof(bits)); }
  __device__ ElementType& operator[](int index) { return payload[index]; }
  __device__ int4 get_bits() const {
    int4 bits;
    memcpy(&bits, &payload, sizeof(bits));
    return bits;
  }
  static constexpr const size_t size = sizeof(int4) / sizeof(ElementType);
  ElementType payload[size];
};
template <class ElementType>
__device__ Packed128<ElementType> load128(const ElementType* address) {
  return Packed128<ElementType>{*reinterpret_cast<const int4*>(address)};
}
__device__ Packed128<float> twice(Packed128<float> p) {
  for (int k = 0; k < 4; ++k) p[k] *= 2.0f;
  return p;
}

// Packs of 16-bit values, packs made other than by a load or a copy, and packs passed whole to
// other functions are refused.
__global__ void f(const float* x, const __nv_bfloat16* h, float* y, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i >= n) return;
  Packed128<__nv_bfloat16> a = load128(h + 2 * i);
  Packed128<float> b = twice(load128(x + i));
  y[i] = b[0] + (float)a[0];
  y[i + 1] = twice(b)[0];
}
