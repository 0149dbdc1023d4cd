// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn k -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: would record values on a tape
// CHECK: device code cannot grow
__global__ void k(const float* x, float* y, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    for (int s = 0; s < steps; ++s) v = sinf(v);
    y[i] = v;
  }
}
