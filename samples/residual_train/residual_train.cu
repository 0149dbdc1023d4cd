// A deep residual network as hand-written training code lays it out: a host loop over layers,
// each a cuBLAS GEMM into a scratch buffer that every layer reuses and a kernel that adds the
// layer's tanh to its input, the activations of all layers side by side in Hs. cuBLAS is
// column-major: X is width x batch (one sample per column), layer l's weights are the width x width
// matrix at Ws + l * width * width, Wout is width x classes. Softmax cross-entropy averaged over the batch.
//
// SAMPLE: train-step residual --params Ws,bs,Wout,bout --optimizer adamw
// SAMPLE: grad residual
// HOST: residual X=[12] labels=[4:0:2] Ws=[48:-0.5:0.5] bs=[9] Wout=[12] bout=[3] Hs=[48] T=[12] Z=[12] loss=[1] layers=3 batch=4 width=3 classes=3
// TRAIN: residual params=Ws,bs,Wout,bout optimizer=adamw X=[12] labels=[4:0:2] Ws=[27] bs=[9] Wout=[9] bout=[3] Hs=[48] T=[12] Z=[12] loss=[1] layers=3 batch=4 width=3 classes=3
#include <cublas_v2.h>

// out = h + tanh(t + bias): one residual layer's update of its input h, t = W^T h.
__global__ void residual_tanh(const float* h, const float* t, const float* bias, float* out, int width, int batch) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < width * batch) out[i] = h[i] + tanhf(t[i] + bias[i % width]);
}

__global__ void add_bias(float* z, const float* bias, int rows, int features) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * features) z[i] += bias[i % features];
}

// The cross-entropy of the softmax of each sample's logits against its label, averaged over the
// batch: one thread per sample, adding into a loss the host code zeroes first.
__global__ void softmax_cross_entropy(const float* logits, const int* labels, float* loss, int rows, int classes) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* z = logits + row * classes;
  float sum = 0.0f;
  for (int c = 0; c < classes; ++c) sum += expf(z[c]);
  atomicAdd(loss, (logf(sum) - z[labels[row]]) / rows);
}

void residual(cublasHandle_t handle, const float* X, const int* labels, const float* Ws, const float* bs,
              const float* Wout, const float* bout, float* Hs, float* T, float* Z, float* loss, int layers, int batch,
              int width, int classes) {
  const float one = 1.0f, zero = 0.0f;
  const int threads = 256;
  const int size = width * batch;
  cudaMemcpyAsync(Hs, X, size * sizeof(float), cudaMemcpyDeviceToDevice, 0);
  for (int l = 0; l < layers; ++l) {
    cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, width, batch, width, &one, Ws + l * width * width, width,
                Hs + l * size, width, &zero, T, width);
    residual_tanh<<<(size + threads - 1) / threads, threads>>>(Hs + l * size, T, bs + l * width, Hs + (l + 1) * size,
                                                              width, batch);
  }
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, classes, batch, width, &one, Wout, width, Hs + layers * size, width,
              &zero, Z, classes);
  add_bias<<<(batch * classes + threads - 1) / threads, threads>>>(Z, bout, batch, classes);
  cudaMemsetAsync(loss, 0, sizeof(float), 0);
  softmax_cross_entropy<<<(batch + threads - 1) / threads, threads>>>(Z, labels, loss, batch, classes);
}
