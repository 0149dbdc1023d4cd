// W3 on the GPU (../shared/BENCHMARKS.md): the training step Adjoint generated from
// samples/transformer_train (transformer_train_step: layernorm, GEMM, GELU, GEMM, residual,
// layernorm, classifier GEMM, softmax cross-entropy, backward, SGD) against the floor of its nine
// GEMMs (3 forward, 3 data-gradient, 3 weight-gradient), in one run, TF32 allowed on both. Before
// timing, ten steps on the same batch must lower the loss.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 --default-stream per-thread -I runtime -I samples/transformer_train
//        bench/w3_bench.cu samples/transformer_train/transformer_train.train.cu -lcublas -o w3_bench
//   ./w3_bench [N C V]   (GPT-2 small's shapes by default: N = 8192 tokens, C = 768, V = 50304)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "timing.h"
#include "transformer_train.train.h"

int main(int argc, char** argv) {
  int N = argc > 3 ? std::atoi(argv[1]) : 8192, C = argc > 3 ? std::atoi(argv[2]) : 768,
      V = argc > 3 ? std::atoi(argv[3]) : 50304, F = 4 * C;
  size_t free_at_start = 0, total = 0;
  CHECK(cudaFree(nullptr));
  CHECK(cudaMemGetInfo(&free_at_start, &total));
  std::mt19937 rng(7);
  auto constant = [](size_t n, float value) {
    std::vector<float> host(n, value);
    float* d = nullptr;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemcpy(d, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    return d;
  };
  size_t tokens = size_t(N);
  float *x = random_buffer(tokens * C, 1.0f, rng), *g1 = constant(C, 1.0f), *be1 = constant(C, 0.0f),
        *W1 = random_buffer(size_t(C) * F, 1.0f / std::sqrt(float(C)), rng), *b1 = random_buffer(F, 0.01f, rng),
        *W2 = random_buffer(size_t(F) * C, 1.0f / std::sqrt(float(F)), rng), *b2 = random_buffer(C, 0.01f, rng),
        *g2 = constant(C, 1.0f), *be2 = constant(C, 0.0f),
        *Wout = random_buffer(size_t(C) * V, 1.0f / std::sqrt(float(C)), rng);
  float *ln1 = random_buffer(tokens * C, 1, rng), *pre = random_buffer(tokens * F, 1, rng),
        *h = random_buffer(tokens * F, 1, rng), *r = random_buffer(tokens * C, 1, rng),
        *ln2 = random_buffer(tokens * C, 1, rng), *logits = random_buffer(tokens * V, 1, rng),
        *loss = random_buffer(1, 1, rng);
  std::vector<int> y(N);
  for (int& l : y) l = std::uniform_int_distribution<int>(0, V - 1)(rng);
  int* labels = nullptr;
  CHECK(cudaMalloc(&labels, N * sizeof(int)));
  CHECK(cudaMemcpy(labels, y.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH);

  auto step = [&] {
    CHECK(transformer_train_step(handle, x, labels, g1, be1, W1, b1, W2, b2, g2, be2, Wout, ln1, pre, h, r, ln2, logits,
                                 loss, N, C, V, 0.05f));
  };
  char workload[64];
  std::snprintf(workload, sizeof workload, "W3 N=%d C=%d V=%d", N, C, V);
  if (!loss_decreases(step, loss, workload, free_at_start)) return 1;
  double ms = median_ms(step, 30, 5);

  cublasSetStream(handle, cudaStreamPerThread);
  double graph_ms = graph_replay_ms(
      step, {g1, be1, W1, b1, W2, b2, g2, be2, Wout},
      {size_t(C), size_t(C), size_t(C) * F, size_t(F), size_t(F) * C, size_t(C), size_t(C), size_t(C), size_t(C) * V});
  if (graph_ms < 0) return 1;

  // The floor: the nine GEMMs of the step alone (TF32), on scratch buffers of the same shapes.
  float *G = random_buffer(tokens * F, 1, rng), *G2 = random_buffer(size_t(C) * V, 1, rng);
  const float one = 1, zero = 0;
  auto gemms = [&] {
    cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, F, N, C, &one, W1, C, ln1, C, &zero, pre, F);
    cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, C, N, F, &one, W2, F, h, F, &zero, r, C);
    cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, V, N, C, &one, Wout, C, ln2, C, &zero, logits, V);
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, C, N, V, &one, Wout, C, logits, V, &zero, G, C);  // d ln2
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, C, V, N, &one, ln2, C, logits, V, &zero, G2, C);  // dWout
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, F, N, C, &one, W2, F, r, C, &zero, G, F);         // dh
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, F, C, N, &one, h, F, r, C, &zero, G2, F);         // dW2
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, C, N, F, &one, W1, C, pre, F, &zero, G, C);       // d ln1
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, C, F, N, &one, ln1, C, pre, F, &zero, G2, C);     // dW1
  };
  double floor_ms = median_ms(gemms, 30, 5);
  std::printf("generated training step: %.4f ms; nine GEMMs alone: %.4f ms; ratio %.2fx\n", ms, floor_ms,
              ms / floor_ms);
  std::printf("generated training step replayed as a CUDA graph: %.4f ms; ratio %.2fx\n", graph_ms,
              graph_ms / floor_ms);
  return 0;
}
