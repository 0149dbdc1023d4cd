// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn k -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: the value atomicAdd returns is not supported
// CHECK: call atomicAdd as a statement of its own
__global__ void k(const float* x, float* total, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = atomicAdd(total, x[i]) * x[i];
}
