// RUN: rm -rf %t && mkdir %t && not %adjoint train-step %s --fn total --params w -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: train_kernel.cu:6:17: error: train-step takes host code: 'total' launches no kernel and calls no GEMM
// CHECK: note: write the training step's forward as a host function that launches the kernels

// A kernel has no launch configuration of its own to train with.
__global__ void total(const float* x, const float* w, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(loss, w[0] * x[i] * x[i]);
}
