// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: host_device_condition.cu:12:3: error: the condition of an if in host code must read host values alone
// CHECK: note: test sizes, flags, the loop's counter or pointers against null; values on the device
__global__ void square(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i];
}

// A step chosen by what a kernel computed: the host cannot read device memory, and the reverse
// sweep could not choose the same pullbacks.
void f(const float* x, float* y, float* z, int n) {
  if (x[0] > 0) square<<<(n + 127) / 128, 128>>>(x, y, n);
  square<<<(n + 127) / 128, 128>>>(y, z, n);
}
