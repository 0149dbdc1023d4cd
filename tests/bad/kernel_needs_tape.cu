// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn k -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// A while loop runs as many times as its data says: the slots of what the reverse needs of each
// iteration cannot be counted before the launch.
// CHECK: error: the reverse of 'k' would record values on a tape ('v_tape') in a loop whose runs cannot be counted before the launch
// CHECK: note: kernels keep such values in global scratch, a slot per run, in counted loops whose bounds are literals, the kernel's scalar parameters or blockDim.x; or declare a new local instead of reassigning one
__global__ void k(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    while (v > 0.5f) v = sinf(v) - 0.1f;
    y[i] = v;
  }
}
