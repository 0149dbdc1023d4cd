// W2 on the GPU (../shared/BENCHMARKS.md): the training step Adjoint generated from
// samples/mlp_train (mlp_train_step: forward, softmax cross-entropy, backward, SGD) against the
// floor of its nine GEMMs (3 forward, 3 data-gradient, 3 weight-gradient), in one run, TF32 allowed
// on both. Before timing, ten steps on the same batch must lower the loss.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 --default-stream per-thread -I runtime -I samples/mlp_train
//        bench/w2_bench.cu samples/mlp_train/mlp_train.train.cu -lcublas -o w2_bench
//   ./w2_bench large|small
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "mlp_train.train.h"
#include "timing.h"

int main(int argc, char** argv) {
  bool small = argc > 1 && std::strcmp(argv[1], "small") == 0;
  int B = small ? 2048 : 8192, D = small ? 256 : 1024, H = small ? 512 : 4096, C = small ? 16 : 1024;
  // Device memory before anything is allocated, to tell what the workload holds (PyTorch's peak
  // is its allocator's: parameters, activations, gradients and workspace alike).
  size_t free_at_start = 0, total = 0;
  CHECK(cudaFree(nullptr));
  CHECK(cudaMemGetInfo(&free_at_start, &total));
  std::mt19937 rng(7);
  float *X = random_buffer(size_t(D) * B, 1.0f, rng), *W1 = random_buffer(size_t(D) * H, 1.0f / std::sqrt(D), rng),
        *W2 = random_buffer(size_t(H) * H, 1.0f / std::sqrt(H), rng),
        *W3 = random_buffer(size_t(H) * C, 1.0f / std::sqrt(H), rng), *b1 = random_buffer(H, 0.01f, rng),
        *b2 = random_buffer(H, 0.01f, rng), *b3 = random_buffer(C, 0.01f, rng);
  float *H1 = random_buffer(size_t(H) * B, 1, rng), *H2 = random_buffer(size_t(H) * B, 1, rng),
        *Z = random_buffer(size_t(C) * B, 1, rng), *loss = random_buffer(1, 1, rng);
  std::vector<int> y(B);
  for (int& l : y) l = std::uniform_int_distribution<int>(0, C - 1)(rng);
  int* labels = nullptr;
  CHECK(cudaMalloc(&labels, B * sizeof(int)));
  CHECK(cudaMemcpy(labels, y.data(), B * sizeof(int), cudaMemcpyHostToDevice));
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH);

  auto step = [&] {
    CHECK(mlp_train_step(handle, X, labels, W1, b1, W2, b2, W3, b3, H1, H2, Z, loss, B, D, H, C, 0.01f));
  };
  char workload[96];
  std::snprintf(workload, sizeof workload, "W2-%s B=%d D=%d H=%d C=%d", small ? "small" : "large", B, D, H, C);
  if (!loss_decreases(step, loss, workload, free_at_start)) return 1;
  double ms = median_ms(step, 50, 5);

  // The same step replayed as a CUDA graph.
  cublasSetStream(handle, cudaStreamPerThread);
  double graph_ms = graph_replay_ms(step, {W1, b1, W2, b2, W3, b3},
                                    {size_t(D) * H, size_t(H), size_t(H) * H, size_t(H), size_t(H) * C, size_t(C)});
  if (graph_ms < 0) return 1;

  // The floor: the nine GEMMs of the step alone (TF32), on scratch buffers of the same shapes.
  float *G = random_buffer(size_t(H) * std::max(B, H), 1, rng), *G2 = random_buffer(size_t(H) * std::max(B, H), 1, rng);
  const float one = 1, zero = 0;
  auto gemms = [&] {
    cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, H, B, D, &one, W1, D, X, D, &zero, H1, H);
    cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, H, B, H, &one, W2, H, H1, H, &zero, H2, H);
    cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, C, B, H, &one, W3, H, H2, H, &zero, Z, C);
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, H, B, C, &one, W3, H, Z, C, &zero, G, H);    // dH2
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, H, C, B, &one, H2, H, Z, C, &zero, G2, H);   // dW3
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, H, B, H, &one, W2, H, H2, H, &zero, G, H);   // dH1
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, H, H, B, &one, H1, H, H2, H, &zero, G2, H);  // dW2
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, D, B, H, &one, W1, D, H1, H, &zero, G, D);   // dX
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, D, H, B, &one, X, D, H1, H, &zero, G2, D);   // dW1
  };
  double floor_ms = median_ms(gemms, 50, 5);
  std::printf("generated training step: %.4f ms; nine GEMMs alone: %.4f ms; ratio %.2fx\n", ms, floor_ms,
              ms / floor_ms);
  std::printf("generated training step replayed as a CUDA graph: %.4f ms; ratio %.2fx\n", graph_ms,
              graph_ms / floor_ms);
  return 0;
}
