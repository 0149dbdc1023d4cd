// Host loops over layers: counted loops of launches and GEMMs with offsets by the layer
// (xs + l * n), buffers updated in place and scratch reused by every layer. What a layer
// overwrites and the loop's pullbacks read is saved per iteration; the pullbacks run in a loop
// that counts back.
#include <cublas_v2.h>

// out = in + tanh(w in + b): a residual layer with one weight and one bias.
__global__ void residual(const float* in, const float* w, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + tanhf(w[0] * in[i] + b[0]);
}

__global__ void mean_square(const float* x, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(loss, x[i] * x[i] / n);
}

// Activations of every layer kept side by side: layer l reads xs + l * n, writes xs + (l + 1) * n.
// HOST: stacked xs=[50] w=[4] b=[4] loss=[1] layers=4 n=10
void stacked(float* xs, const float* w, const float* b, float* loss, int layers, int n) {
  const int threads = 32;
  for (int l = 0; l < layers; ++l) {
    residual<<<(n + threads - 1) / threads, threads>>>(xs + l * n, w + l, b + l, xs + (l + 1) * n, n);
  }
  mean_square<<<(n + threads - 1) / threads, threads>>>(xs + layers * n, loss, n);
}

__global__ void scale(const float* x, const float* w, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = w[0] * x[i];
}

// x[i] += sin(t[i]): in place.
__global__ void add_sin(float* x, const float* t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += sinf(t[i]) * x[i];
}

// One activation buffer updated in place by every layer, one scratch buffer reused by all: both
// are saved per layer. The loop counts down, its sizes are locals of its body.
// HOST: in_place x=[24] w=[3] t=[24] layers=3 n=24
void in_place(float* x, const float* w, float* t, int layers, int n) {
  for (int l = layers - 1; l >= 0; --l) {
    const int blocks = (n + 15) / 16;
    scale<<<blocks, 16>>>(x, w + l, t, n);
    add_sin<<<blocks, 16>>>(x, t, n);
  }
}

__global__ void relu(float* h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] = fmaxf(h[i], 0.0f);
}

// One layer of a deep MLP: H_out = relu(W^T H_in), width x batch, column-major.
void dense_layer(cublasHandle_t handle, const float* W, const float* in, float* out, int width, int batch) {
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, width, batch, width, &one, W, width, in, width, &zero, out, width);
  relu<<<(width * batch + 63) / 64, 64>>>(out, width * batch);
}

// A stack of such layers, each a call of a host function in the loop, weights at W + l * width^2.
// Away from ReLU's kink: weights and inputs are positive.
// HOST: deep Ws=[48:0.1:0.5] hs=[40:0.5:1.5] layers=3 width=4 batch=2
void deep(cublasHandle_t handle, const float* Ws, float* hs, int layers, int width, int batch) {
  for (int l = 0; l < layers; ++l) {
    const int size = width * batch;
    dense_layer(handle, Ws + l * width * width, hs + l * size, hs + (l + 1) * size, width, batch);
  }
}
