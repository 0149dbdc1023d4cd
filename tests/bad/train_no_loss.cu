// RUN: rm -rf %t && mkdir %t && not %adjoint train-step %s --fn f --params w --loss cost -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: train_no_loss.cu:10:6: error: 'f' writes no loss buffer named 'cost'
// CHECK: note: name the one-element buffer the function writes its loss into with --loss
__global__ void total(const float* x, const float* w, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(loss, w[0] * x[i] * x[i]);
}

// The loss is named loss, not cost.
void f(const float* x, const float* w, float* loss, int n) { total<<<(n + 63) / 64, 64>>>(x, w, loss, n); }
