// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// RUN: not %adjoint grad %s --fn g -o %t/out.cu 2>&1 | FileCheck %s --check-prefix=HOST && ls -A %t | count 0
// CHECK: kernel_storage16.cu:19:3: error: a value of type '__nv_bfloat16' is not supported
// CHECK: note: keep values in float (float v = __bfloat162float(x[i])) and round them when storing into an array
// CHECK: kernel_storage16.cu:20:10: error: this 16-bit floating value is not supported
// CHECK: note: compute in float: read an element with __bfloat162float(x[i]) (or (float)x[i]) and store __float2bfloat16(v)
// CHECK: kernel_storage16.cu:21:3: error: compound assignment to a 16-bit element is not supported
// CHECK-NOT: error:
// HOST: kernel_storage16.cu:23:20: error: arrays of '__half' are supported in kernels and device functions
// HOST: note: differentiate the kernels that read and write them (host code over 16-bit buffers is not supported yet)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// 16-bit storage is read widened to float and written rounded; a local of a 16-bit type,
// arithmetic on the 16-bit values themselves and host code over such buffers are refused.
__global__ void f(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat16 t = x[i];
  y[i] = x[i] * w[i] + t;
  y[i] += x[i];
}
void g(float* out, const __half* x, int n) { f<<<1, 32>>>(nullptr, nullptr, nullptr, n); }
