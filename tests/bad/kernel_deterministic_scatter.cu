// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn k --deterministic -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// A grid-stride loop runs as many times as the launch leaves elements per thread: the slots of a
// sort-and-segment sum cannot be counted before the launch.
// CHECK: kernel_deterministic_scatter.cu:[[@LINE+5]]:{{[0-9]+}}: error: --deterministic: the adjoint of x[idx[i]] needs a floating-point atomicAdd (threads may share the index, and a loop around it runs a number of times not known before the launch)
// CHECK-NEXT: y[i] = x[idx[i]] * 3.0f;
// CHECK: note: a sort-and-segment sum records a slot per run of the addition: a thread runs it once, or in counted loops whose bounds are literals or the kernel's scalar parameters; or drop --deterministic
__global__ void k(const float* x, const int* idx, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = x[idx[i]] * 3.0f;
}
