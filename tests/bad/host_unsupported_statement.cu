// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: host_unsupported_statement.cu:13:3: error: an if is not supported in host code over kernels
// CHECK: note: host code that Adjoint differentiates declares sizes and launch configurations,
__global__ void square(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i];
}

void f(const float* x, float* y, int n, bool twice) {
  square<<<(n + 127) / 128, 128>>>(x, y, n);
  // A data-dependent choice made on the host: which launches run would have to be
  // recorded for the reverse.
  if (twice) square<<<(n + 127) / 128, 128>>>(y, y, n);
}
