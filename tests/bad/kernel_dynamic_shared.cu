// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn k -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: this __shared__ variable is not supported
// CHECK: declare shared memory as a fixed-size __shared__ array
__global__ void k(const float* x, float* y, int n) {
  extern __shared__ float tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = x[i];
  __syncthreads();
  if (i < n) y[i] = tile[threadIdx.x] * 2.0f;
}
