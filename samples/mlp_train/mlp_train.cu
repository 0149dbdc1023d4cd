// W2 of ../../shared/BENCHMARKS.md: the forward of an MLP training step, as hand-written CUDA
// training code lays it out. cuBLAS is column-major: X is D x B (one sample per column), W1 is
// D x H, W2 H x H, W3 H x C; H1, H2 (H x B) and Z (C x B) are the intermediates, passed in.
// Layers D -> H -> H -> C with bias and ReLU, then softmax cross-entropy averaged over the batch.
//
// SAMPLE: train-step mlp --params W1,b1,W2,b2,W3,b3 --optimizer sgd
// SAMPLE: grad mlp
// Checked away from the kinks of ReLU (finite differences across one are not the derivative; both
// sides of ReLU are checked in tests/kernels/host_gemm.cu):
// HOST: mlp X=[30] labels=[6:0:2] W1=[20:-0.2:0.2] b1=[4:1:1.5] W2=[16:-0.2:0.2] b2=[4:1:1.5] W3=[12] b3=[3] H1=[24] H2=[24] Z=[18] loss=[1] B=6 D=5 H=4 C=3
// TRAIN: mlp params=W1,b1,W2,b2,W3,b3 optimizer=sgd X=[30] labels=[6:0:2] W1=[20] b1=[4] W2=[16] b2=[4] W3=[12] b3=[3] H1=[24] H2=[24] Z=[18] loss=[1] B=6 D=5 H=4 C=3
#include <cublas_v2.h>

#include "adjoint/annotations.h"

// ReLU of a layer's pre-activation plus its bias, in place.
__global__ void bias_relu(float* h, const float* bias, int rows, int features) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * features) h[i] = fmaxf(h[i] + bias[i % features], 0.0f);
}

__global__ void add_bias(float* z, const float* bias, int rows, int features) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * features) z[i] += bias[i % features];
}

// The largest of a row's logits, by the row's warp. Softmax does not change with the shift it
// subtracts, so the shift is a constant to differentiation (and its running maximum needs no tape).
ADJOINT_NONDIFFERENTIABLE __device__ float row_max(const float* logits, int row, int classes, int lane) {
  float m = -1e30f;
  for (int c = lane; c < classes; c += 32) m = fmaxf(m, logits[row * classes + c]);
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  return m;
}

// The cross-entropy of the softmax of each sample's logits against its label, averaged over the
// batch: one warp per sample, its lanes striding over the classes, sums by warp shuffles.
__global__ void softmax_cross_entropy(const float* logits, const int* labels, float* loss, int rows, int classes) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* z = logits + row * classes;
  float m = row_max(logits, row, classes, lane);
  float sum = 0.0f;
  for (int c = lane; c < classes; c += 32) sum += expf(z[c] - m);
  for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  if (lane == 0) atomicAdd(loss, (logf(sum) + m - z[labels[row]]) / rows);
}

void mlp(cublasHandle_t handle, const float* X, const int* labels, const float* W1, const float* b1, const float* W2,
         const float* b2, const float* W3, const float* b3, float* H1, float* H2, float* Z, float* loss, int B, int D,
         int H, int C) {
  const float one = 1.0f, zero = 0.0f;
  const int threads = 256;
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, H, B, D, &one, W1, D, X, D, &zero, H1, H);
  bias_relu<<<(B * H + threads - 1) / threads, threads>>>(H1, b1, B, H);
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, H, B, H, &one, W2, H, H1, H, &zero, H2, H);
  bias_relu<<<(B * H + threads - 1) / threads, threads>>>(H2, b2, B, H);
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, C, B, H, &one, W3, H, H2, H, &zero, Z, C);
  add_bias<<<(B * C + threads - 1) / threads, threads>>>(Z, b3, B, C);
  softmax_cross_entropy<<<(B * 32 + threads - 1) / threads, threads>>>(Z, labels, loss, B, C);
}
