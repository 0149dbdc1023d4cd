// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn k -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: 'atomicMax' cannot be differentiated
__global__ void k(const float* x, int* best, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMax(best, i);
    y[i] = x[i] * x[i];
  }
}
