// RUN: rm -rf %t && mkdir %t && not %adjoint train-step %s --fn f --params w,c -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: train_loss_independent.cu:14:6: error: the loss 'loss' does not depend on the trained parameter 'c'
// CHECK: note: train the parameters that the steps of 'f' lead from to the loss
__global__ void scale(const float* x, const float* w, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = w[0] * x[i];
}
__global__ void total(const float* y, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(loss, y[i] * y[i]);
}

// c is scaled into z, which the loss never reads: training it would never change it.
void f(const float* x, const float* w, const float* c, float* y, float* z, float* loss, int n) {
  scale<<<(n + 63) / 64, 64>>>(x, w, y, n);
  scale<<<(n + 63) / 64, 64>>>(x, c, z, n);
  total<<<(n + 63) / 64, 64>>>(y, loss, n);
}
