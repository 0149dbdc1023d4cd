// W3 of ../../shared/BENCHMARKS.md: a transformer's MLP block and its classifier, the forward of a
// training step as hand-written CUDA training code lays it out. Activations are row-major, one
// row of C features per token (N x C), which cuBLAS reads as a column-major C x N matrix; the
// weights are column-major: W1 is C x 4C, W2 4C x C, Wout C x V (linear layers compute Wᵀ x).
//   ln1 = layernorm(x)            h = gelu(W1ᵀ ln1 + b1)       r = x + W2ᵀ h + b2
//   ln2 = layernorm(r)            loss = mean cross-entropy(softmax(Woutᵀ ln2), labels)
// The intermediates (ln1, pre, h, r, ln2, logits) are the caller's buffers, as in hand-written code.
//
// SAMPLE: train-step transformer --params g1,be1,W1,b1,W2,b2,g2,be2,Wout --optimizer sgd
// SAMPLE: grad transformer
// HOST: transformer x=[24] labels=[4:0:4] g1=[6:0.5:1.5] be1=[6] W1=[144] b1=[24] W2=[144] b2=[6] g2=[6:0.5:1.5] be2=[6] Wout=[30] ln1=[24] pre=[96] h=[96] r=[24] ln2=[24] logits=[20] loss=[1] N=4 C=6 V=5
// TRAIN: transformer params=g1,be1,W1,b1,W2,b2,g2,be2,Wout optimizer=sgd x=[24] labels=[4:0:4] g1=[6:0.5:1.5] be1=[6] W1=[144] b1=[24] W2=[144] b2=[6] g2=[6:0.5:1.5] be2=[6] Wout=[30] ln1=[24] pre=[96] h=[96] r=[24] ln2=[24] logits=[20] loss=[1] N=4 C=6 V=5
// Under --deterministic the adjoints that threads share (the layernorms' gain and shift, the
// logits at each token's label) are sort-and-segment sums, and the step equals its unfused
// reference bitwise:
// HOST: transformer x=[24] labels=[4:0:4] g1=[6:0.5:1.5] be1=[6] W1=[144] b1=[24] W2=[144] b2=[6] g2=[6:0.5:1.5] be2=[6] Wout=[30] ln1=[24] pre=[96] h=[96] r=[24] ln2=[24] logits=[20] loss=[1] N=4 C=6 V=5 deterministic
// TRAIN: transformer deterministic params=g1,be1,W1,b1,W2,b2,g2,be2,Wout optimizer=sgd x=[24] labels=[4:0:4] g1=[6:0.5:1.5] be1=[6] W1=[144] b1=[24] W2=[144] b2=[6] g2=[6:0.5:1.5] be2=[6] Wout=[30] ln1=[24] pre=[96] h=[96] r=[24] ln2=[24] logits=[20] loss=[1] N=4 C=6 V=5
#include <cublas_v2.h>

#include "adjoint/annotations.h"

// Layer normalization of each row, one warp per row: the row's mean and variance by warp shuffles.
__global__ void layernorm(const float* x, const float* gain, const float* shift, float* out, int rows, int C) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* xr = x + row * C;
  float sum = 0.0f;
  for (int c = lane; c < C; c += 32) sum += xr[c];
  for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  float mean = sum / C;
  float squares = 0.0f;
  for (int c = lane; c < C; c += 32) {
    float d = xr[c] - mean;
    squares += d * d;
  }
  for (int o = 16; o > 0; o /= 2) squares += __shfl_xor_sync(0xffffffffu, squares, o);
  float rstd = rsqrtf(squares / C + 1e-5f);
  float* y = out + row * C;
  for (int c = lane; c < C; c += 32) y[c] = (xr[c] - mean) * rstd * gain[c] + shift[c];
}

// GELU (tanh form) of a layer's pre-activation plus its bias.
__global__ void bias_gelu(const float* pre, const float* bias, float* out, int rows, int features) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * features) {
    float u = pre[i] + bias[i % features];
    float t = tanhf(0.7978845608f * (u + 0.044715f * u * u * u));
    out[i] = 0.5f * u * (1.0f + t);
  }
}

// The residual connection: the block's input plus the layer's output and its bias, in place.
__global__ void bias_residual(float* y, const float* bias, const float* x, int rows, int features) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * features) y[i] += bias[i % features] + x[i];
}

// The largest of a row's logits, by the row's warp. Softmax does not change with the shift it
// subtracts, so the shift is a constant to differentiation (and its running maximum needs no tape).
ADJOINT_NONDIFFERENTIABLE __device__ float row_max(const float* z, int classes, int lane) {
  float m = -1e30f;
  for (int c = lane; c < classes; c += 32) m = fmaxf(m, z[c]);
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  return m;
}

// The cross-entropy of the softmax of each token's logits against its label, averaged over the
// tokens: one warp per token, its lanes striding over the classes.
__global__ void softmax_cross_entropy(const float* logits, const int* labels, float* loss, int rows, int classes) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* z = logits + static_cast<long>(row) * classes;
  float m = row_max(z, classes, lane);
  float sum = 0.0f;
  for (int c = lane; c < classes; c += 32) sum += expf(z[c] - m);
  for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  if (lane == 0) atomicAdd(loss, (logf(sum) + m - z[labels[row]]) / rows);
}

void transformer(cublasHandle_t handle, const float* x, const int* labels, const float* g1, const float* be1,
                 const float* W1, const float* b1, const float* W2, const float* b2, const float* g2, const float* be2,
                 const float* Wout, float* ln1, float* pre, float* h, float* r, float* ln2, float* logits, float* loss,
                 int N, int C, int V) {
  const float one = 1.0f, zero = 0.0f;
  const int threads = 256, F = 4 * C;
  layernorm<<<(N * 32 + threads - 1) / threads, threads>>>(x, g1, be1, ln1, N, C);
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, F, N, C, &one, W1, C, ln1, C, &zero, pre, F);
  bias_gelu<<<(N * F + threads - 1) / threads, threads>>>(pre, b1, h, N, F);
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, C, N, F, &one, W2, F, h, F, &zero, r, C);
  bias_residual<<<(N * C + threads - 1) / threads, threads>>>(r, b2, x, N, C);
  layernorm<<<(N * 32 + threads - 1) / threads, threads>>>(r, g2, be2, ln2, N, C);
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, V, N, C, &one, Wout, C, ln2, C, &zero, logits, V);
  softmax_cross_entropy<<<(N * 32 + threads - 1) / threads, threads>>>(logits, labels, loss, N, V);
}
