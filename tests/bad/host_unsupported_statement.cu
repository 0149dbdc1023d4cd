// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: host_unsupported_statement.cu:14:5: error: a loop under an if is not supported in host code over kernels
// CHECK: note: host code that Adjoint differentiates declares sizes and launch configurations,
__global__ void square(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i];
}

void f(float* x, int n, int layers, bool deep) {
  square<<<(n + 127) / 128, 128>>>(x, x + n, n);
  // A loop of layers only for deep models: the loop's saves and trip count would have to follow
  // the condition.
  if (deep)
    for (int l = 1; l < layers; ++l) square<<<(n + 127) / 128, 128>>>(x + l * n, x + (l + 1) * n, n);
}
