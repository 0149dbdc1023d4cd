// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: host_memcpy_from_host.cu:13:3: error: a cudaMemcpy of host code must copy from device to device
// CHECK: note: copies from and to host memory leave the buffers Adjoint differentiates
__global__ void square(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i];
}

// The values come from host memory, which the derivatives do not follow.
void f(const float* host_values, float* x, float* y, int n, cudaStream_t stream) {
  square<<<(n + 127) / 128, 128, 0, stream>>>(x, y, n);
  // (a host pointer, as the forward would pass it)
  cudaMemcpyAsync(x, host_values, n * sizeof(float), cudaMemcpyHostToDevice, stream);
}
