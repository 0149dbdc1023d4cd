// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn k -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: kernel_dynamic_shared.cu:19:3: error: this extern __shared__ variable is not supported
// CHECK: note: declare one extern __shared__ array of scalars per kernel, in the kernel (extern __shared__ float tile[])
// CHECK: kernel_dynamic_shared.cu:20:3: error: this __shared__ variable is not supported
// CHECK: note: declare shared memory as a fixed-size __shared__ array (a one-element array for a scalar), or as extern __shared__ T name[] sized by the launch
// CHECK: kernel_dynamic_shared.cu:13:3: error: this extern __shared__ variable is not supported
// CHECK-NOT: error:
struct Pair {
  float a, b;
};

__device__ float neighbour(int t) {
  extern __shared__ float row[];  // in a device function: the kernel's own is its one
  return row[(t + 1) % 32];
}

__global__ void k(const float* x, float* y, int n) {
  extern __shared__ float tile[];
  extern __shared__ Pair pairs[];  // a second one, of structs, would alias the first
  __shared__ float scalar;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = x[i];
  __syncthreads();
  if (i < n) y[i] = tile[threadIdx.x] * 2.0f + neighbour(threadIdx.x) + pairs[0].a + scalar;
}
