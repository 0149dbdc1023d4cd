// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn k --deterministic -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: --deterministic: the adjoint of x[idx[i]] needs a floating-point atomicAdd
__global__ void k(const float* x, const int* idx, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[idx[i]] * 3.0f;
}
