// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: host_launch_argument.cu:12:3: error: argument 1 of this launch is not a buffer parameter
// CHECK: note: pass the function's pointer parameters, or offsets into them (xs + l * n)
__global__ void square(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i];
}

float* pick(float* a, float* b, int k) { return k ? a : b; }

void f(float* a, float* b, float* y, int n, int k) {
  square<<<(n + 127) / 128, 128>>>(pick(a, b, k), y, n);
}
