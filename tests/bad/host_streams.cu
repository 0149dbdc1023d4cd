// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: host_streams.cu:12:3: error: kernels launched on different streams
// CHECK: note: launch every kernel of the function on one stream (a parameter)
__global__ void square(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i];
}

void f(const float* x, float* y, float* z, int n, cudaStream_t a, cudaStream_t b) {
  square<<<(n + 127) / 128, 128, 0, a>>>(x, y, n);
  // Without an event between the streams, the second launch may run before the first.
  square<<<(n + 127) / 128, 128, 0, b>>>(y, z, n);
}
