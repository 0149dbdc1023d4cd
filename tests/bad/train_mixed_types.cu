// RUN: rm -rf %t && mkdir %t && not %adjoint train-step %s --fn f --params w,v --optimizer sgd -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: train_mixed_types.cu:10:6: error: the trained parameters 'w' and 'v' differ in type
// CHECK: note: the optimizer's learning rate and state have one type: train buffers of one type
__global__ void loss_of(const float* w, const double* v, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(loss, w[i] * w[i] + float(v[i]));
}

// A float and a double parameter: one learning rate cannot be both.
void f(const float* w, const double* v, float* loss, int n) {
  loss_of<<<(n + 127) / 128, 128>>>(w, v, loss, n);
}
