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

namespace {

float* random_buffer(size_t n, float scale, std::mt19937& rng) {
  std::vector<float> host(n);
  std::normal_distribution<float> normal(0.0f, scale);
  for (float& x : host) x = normal(rng);
  float* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMemcpy(d, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

}  // namespace

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
  // Ten steps on one batch lower its loss.
  float first = 0, last = 0;
  for (int i = 0; i < 10; ++i) {
    step();
    CHECK(cudaMemcpy(i == 0 ? &first : &last, loss, sizeof(float), cudaMemcpyDeviceToHost));
  }
  std::printf("W2-%s B=%d D=%d H=%d C=%d: loss %.5f after the first step, %.5f after ten\n", small ? "small" : "large",
              B, D, H, C, first, last);
  if (!(last < first) || !std::isfinite(last)) {
    std::printf("FAILED: the loss did not decrease\n");
    return 1;
  }
  size_t free_after_steps = 0;
  CHECK(cudaMemGetInfo(&free_after_steps, &total));
  std::printf("device memory held: %.0f MiB (buffers, the step's scratch, cuBLAS's workspace)\n",
              double(free_at_start - free_after_steps) / (1 << 20));
  double ms = median_ms(step, 50, 5);

  // The same step captured into a CUDA graph (it allocates nothing and does not synchronize after
  // its first call; built with --default-stream per-thread, its launches go to the capturable
  // per-thread stream), replayed: three replays must give the parameters three calls give.
  std::vector<float*> params{W1, b1, W2, b2, W3, b3};
  std::vector<size_t> sizes{size_t(D) * H, size_t(H), size_t(H) * H, size_t(H), size_t(H) * C, size_t(C)};
  auto snapshot = [&] {
    std::vector<std::vector<float>> out;
    for (size_t k = 0; k < params.size(); ++k) {
      out.emplace_back(sizes[k]);
      CHECK(cudaMemcpy(out.back().data(), params[k], sizes[k] * sizeof(float), cudaMemcpyDeviceToHost));
    }
    return out;
  };
  auto restore = [&](const std::vector<std::vector<float>>& values) {
    for (size_t k = 0; k < params.size(); ++k)
      CHECK(cudaMemcpy(params[k], values[k].data(), sizes[k] * sizeof(float), cudaMemcpyHostToDevice));
  };
  cublasSetStream(handle, cudaStreamPerThread);
  cudaGraph_t graph;
  cudaGraphExec_t replay;
  CHECK(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeThreadLocal));
  step();
  CHECK(cudaStreamEndCapture(cudaStreamPerThread, &graph));
  CHECK(cudaGraphInstantiate(&replay, graph, 0));
  std::vector<std::vector<float>> start = snapshot();
  for (int i = 0; i < 3; ++i) step();
  std::vector<std::vector<float>> called = snapshot();
  restore(start);
  for (int i = 0; i < 3; ++i) CHECK(cudaGraphLaunch(replay, cudaStreamPerThread));
  std::vector<std::vector<float>> replayed = snapshot();
  double largest = 0, difference = 0;
  for (size_t k = 0; k < params.size(); ++k)
    for (size_t i = 0; i < sizes[k]; ++i) {
      largest = std::max(largest, double(std::fabs(called[k][i])));
      difference = std::max(difference, double(std::fabs(called[k][i] - replayed[k][i])));
    }
  std::printf("CUDA graph: three replays against three calls: parameters differ by at most %.3g (largest %.3g)\n",
              difference, largest);
  if (!(difference <= 1e-5 * largest)) {
    std::printf("FAILED: the replayed step differs from the called one\n");
    return 1;
  }
  double graph_ms = median_ms([&] { CHECK(cudaGraphLaunch(replay, cudaStreamPerThread)); }, 50, 5);

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
