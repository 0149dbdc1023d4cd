// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: host_uncounted_loop.cu:13:3: error: a loop of host code must count by one: for (int l = a; l < b; ++l)
// CHECK: note: Adjoint runs the loop's pullbacks in a loop that counts back; other loops are not supported in host code
__global__ void square(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i];
}

// Every other layer: a loop that steps by two.
void f(float* xs, int layers, int n) {
  // Its reverse would need the last value the counter takes.
  int threads = 128;
  for (int l = 0; l < layers; l += 2) square<<<(n + threads - 1) / threads, threads>>>(xs + l * n, xs + (l + 2) * n, n);
}
