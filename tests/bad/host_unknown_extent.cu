// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: host_unknown_extent.cu:14:3: error: cannot tell how many elements of 'y' the kernel 'scatter' writes
// CHECK: note: Adjoint copies the buffers the forward writes; guard the kernel's indices
__global__ void scatter(const float* x, const int* where, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // The index comes from memory: nothing bounds it.
  if (i < n) y[where[i]] = x[i];
}

__global__ void square(const float* x, float* y, int n) { y[0] = x[0] * x[n - 1]; }

void f(const float* x, const int* where, float* y, float* z, int n) {
  square<<<1, 1>>>(x, z, n);
  scatter<<<(n + 127) / 128, 128>>>(x, where, y, n);
}
