// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: kernel_vector_cast.cu:17:21: error: Adjoint cannot follow this cast of a pointer
// CHECK: note: cast a pointer into an array only to its element type or to a struct of fields of that type without padding (const float4* over const float*, const __nv_bfloat162* over const __nv_bfloat16*)
// CHECK: kernel_vector_cast.cu:18:16: error: Adjoint cannot follow this cast of a pointer
// CHECK: kernel_vector_cast.cu:19:23: error: an element of a view as vectors is used by its fields only
// CHECK: note: read its fields (x4[i].x), copy it into a local (float4 v = x4[i];) or store a whole one
// CHECK-NOT: error:
#include "adjoint/annotations.h"

struct Padded {
  float value;
  double weight;
};
ADJOINT_NONDIFFERENTIABLE __device__ float lanes(float4 v) { return v.x + v.w; }
__global__ void f(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Padded* p = reinterpret_cast<const Padded*>(x);  // a struct of other fields
  float bits = reinterpret_cast<const int*>(x)[i];      // another element type
  y[i] = bits * lanes(reinterpret_cast<const float4*>(x)[i]);  // a whole vector passed on
}
