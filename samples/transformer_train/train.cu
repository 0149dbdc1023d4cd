// Trains the transformer MLP block and classifier of transformer_train.cu with the training step
// Adjoint generated from it (transformer_train.train.cu, SGD): each token's features come from
// one of kClasses Gaussian clusters in kWidth dimensions, its label is the cluster. Each step
// draws a fresh batch, so the accuracy printed, measured before the step's update, is on tokens
// the model has not trained on. Runs on the GPU (nvcc ... -lcublas), or on the CPU execution of
// kernels (g++ -x c++ -DADJOINT_CPU_EXECUTION -I runtime -I runtime/adjoint/cpu).
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "transformer_train.train.h"

namespace {

constexpr int kTokens = 128, kWidth = 32, kClasses = 8, kSteps = 40;

// Every device buffer the driver allocates, freed before it exits.
std::vector<void*> allocated;

float* device(const std::vector<float>& host) {
  float* d = nullptr;
  cudaMalloc(&d, host.size() * sizeof(float));
  cudaMemcpy(d, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
  allocated.push_back(d);
  return d;
}

float* device(size_t n, float value = 0.0f) { return device(std::vector<float>(n, value)); }

void release(cublasHandle_t handle) {
  for (void* p : allocated) cudaFree(p);
  allocated.clear();
  cublasDestroy(handle);
}

// Weights uniform in +-sqrt(6 / (fan_in + fan_out)).
std::vector<float> weights(int in, int out, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> w(size_t(in) * out);
  for (float& x : w) x = u(rng) * std::sqrt(6.0f / float(in + out));
  return w;
}

}  // namespace

int main() {
  std::mt19937 rng(5);
  std::normal_distribution<float> noise(0.0f, 0.6f);
  std::uniform_int_distribution<int> pick(0, kClasses - 1);
  std::vector<float> centers(kClasses * kWidth);
  for (float& c : centers) c = std::uniform_real_distribution<float>(-1, 1)(rng);

  const int C = kWidth, F = 4 * kWidth, V = kClasses, N = kTokens;
  // Layer norms start as the identity (gain 1, shift 0), biases at 0.
  float *g1 = device(C, 1.0f), *be1 = device(C), *g2 = device(C, 1.0f), *be2 = device(C);
  float *W1 = device(weights(C, F, rng)), *b1 = device(F), *W2 = device(weights(F, C, rng)), *b2 = device(C),
        *Wout = device(weights(C, V, rng));
  float *x = device(size_t(N) * C), *ln1 = device(size_t(N) * C), *pre = device(size_t(N) * F),
        *h = device(size_t(N) * F), *r = device(size_t(N) * C), *ln2 = device(size_t(N) * C),
        *logits = device(size_t(N) * V), *loss = device(1);
  int* labels = nullptr;
  cudaMalloc(&labels, N * sizeof(int));
  allocated.push_back(labels);
  cublasHandle_t handle;
  cublasCreate(&handle);

  std::vector<float> tokens(size_t(N) * C), z(size_t(N) * V);
  std::vector<int> y(N);
  std::printf("%6s %10s %10s\n", "step", "loss", "accuracy");
  double accuracy = 0;
  for (int step = 1; step <= kSteps; ++step) {
    for (int t = 0; t < N; ++t) {
      y[t] = pick(rng);
      for (int c = 0; c < C; ++c) tokens[t * C + c] = centers[y[t] * C + c] + noise(rng);
    }
    cudaMemcpy(x, tokens.data(), tokens.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(labels, y.data(), y.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaError_t status = transformer_train_step(handle, x, labels, g1, be1, W1, b1, W2, b2, g2, be2, Wout, ln1, pre,
                                                h, r, ln2, logits, loss, N, C, V, 0.2f);
    if (status != cudaSuccess) {
      std::fprintf(stderr, "training step failed: %s\n", cudaGetErrorString(status));
      release(handle);
      return 1;
    }
    float l = 0;
    cudaMemcpy(&l, loss, sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(z.data(), logits, z.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int right = 0;
    for (int t = 0; t < N; ++t) {
      int best = 0;
      for (int v = 1; v < V; ++v)
        if (z[t * V + v] > z[t * V + best]) best = v;
      right += best == y[t];
    }
    accuracy = double(right) / N;
    if (step == 1 || step % 5 == 0) std::printf("%6d %10.4f %9.1f%%\n", step, l, 100 * accuracy);
  }
  std::printf("accuracy on the last batch (unseen before its step): %.1f%%\n", 100 * accuracy);
  release(handle);
  return accuracy >= 0.95 ? 0 : 1;
}
