// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: host_nested_loops.cu:14:5: error: a loop in a loop is not supported in host code over kernels
// CHECK: note: host code that Adjoint differentiates declares sizes and launch configurations,
__global__ void square(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i];
}

// Layers of blocks: the saves of a nested loop would need the trip counts of both loops per
// iteration.
void f(float* xs, int layers, int blocks, int n) {
  for (int l = 0; l < layers; ++l)
    // The inner loop.
    for (int b = 0; b < blocks; ++b) square<<<(n + 127) / 128, 128>>>(xs + (l * blocks + b) * n, xs + (l * blocks + b + 1) * n, n);
}
