// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: kernel_pair16.cu:21:31: error: a pair made from floats is read here before it is rounded to 16 bits
// CHECK: note: read the floats the pair was made from, or store the pair into the buffer and read its elements there
// CHECK: kernel_pair16.cu:23:11: error: arithmetic on pairs of 16-bit values is not supported
// CHECK: note: widen the pair to float (__bfloat1622float2(v)), compute in float and store the result with __floats2bfloat162_rn(a, b)
// CHECK: kernel_pair16.cu:24:11: error: arithmetic on pairs of 16-bit values is not supported
// CHECK-NOT: error:
#include <cuda_bf16.h>

// A pair of 16-bit values made from floats holds them rounded: a pair local made so and read as
// floats is refused (the tool keeps a pair local in floats, rounded where it is stored), and so
// is arithmetic on the pairs themselves.
__global__ void f(const __nv_bfloat16* x, __nv_bfloat16* y, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2) return;
  const __nv_bfloat162* x2 = reinterpret_cast<const __nv_bfloat162*>(x);
  __nv_bfloat162* y2 = reinterpret_cast<__nv_bfloat162*>(y);
  float2 v = __bfloat1622float2(x2[i]);
  __nv_bfloat162 r;
  r = __floats2bfloat162_rn(v.x * v.y, v.y);
  y[2 * i] = __float2bfloat16(__low2float(r) * 2.0f);
  y2[i] = r;
  y2[i] = __hmul2(x2[i], x2[i]);
  y2[i] = x2[i] * x2[i];
}
