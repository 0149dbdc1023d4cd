// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn k --deterministic -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// A sparse row's loop runs as many times as its row's entries, read from memory: the slots of a
// sort-and-segment sum cannot be counted before the launch.
// CHECK: kernel_deterministic_scatter.cu:[[@LINE+7]]:{{[0-9]+}}: error: --deterministic: the adjoint of x[cols[j]] needs a floating-point atomicAdd (threads may share the index, and a loop around it runs a number of times not known before the launch)
// CHECK-NEXT: for (int j = starts[i]; j < starts[i + 1]; ++j) s += 2.0f * x[cols[j]];
// CHECK: note: a sort-and-segment sum records a slot per run of the addition: a thread runs it once, or in counted loops whose bounds are literals, the kernel's scalar parameters or blockDim.x; or drop --deterministic
__global__ void k(const int* cols, const int* starts, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int j = starts[i]; j < starts[i + 1]; ++j) s += 2.0f * x[cols[j]];
  y[i] = s;
}
