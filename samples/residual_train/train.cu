// Trains the residual network of residual_train.cu with the training step Adjoint generated from
// it (residual_train.train.cu, AdamW): three classes of points by their distance from the origin
// (concentric rings in the plane, a boundary no linear model draws), the two coordinates in the
// first two of `kWidth` features. Each step draws a fresh batch, so the accuracy printed, measured
// before the step's update, is on samples the model has not trained on. Runs on the GPU (nvcc ...
// -lcublas), or on the CPU execution of kernels (g++ -x c++ -DADJOINT_CPU_EXECUTION -I runtime
// -I runtime/adjoint/cpu).
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "residual_train.train.h"

namespace {

constexpr int kBatch = 256, kWidth = 16, kLayers = 4, kClasses = 3, kSteps = 300;

// Every device buffer the driver allocates, freed before it exits.
std::vector<void*> allocated;

float* device(const std::vector<float>& host) {
  float* d = nullptr;
  cudaMalloc(&d, host.size() * sizeof(float));
  cudaMemcpy(d, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
  allocated.push_back(d);
  return d;
}

void release(cublasHandle_t handle) {
  for (void* p : allocated) cudaFree(p);
  allocated.clear();
  cublasDestroy(handle);
}

std::vector<float> uniform(size_t n, float scale, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-scale, scale);
  std::vector<float> w(n);
  for (float& x : w) x = u(rng);
  return w;
}

}  // namespace

int main() {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> coordinate(-1.5f, 1.5f);
  const float scale = std::sqrt(3.0f / kWidth);
  float *Ws = device(uniform(size_t(kLayers) * kWidth * kWidth, scale, rng)),
        *bs = device(std::vector<float>(kLayers * kWidth)),
        *Wout = device(uniform(size_t(kWidth) * kClasses, scale, rng)), *bout = device(std::vector<float>(kClasses));
  // AdamW's moments, zero before the first step.
  float *Ws_m = device(std::vector<float>(kLayers * kWidth * kWidth)),
        *Ws_v = device(std::vector<float>(kLayers * kWidth * kWidth)),
        *bs_m = device(std::vector<float>(kLayers * kWidth)), *bs_v = device(std::vector<float>(kLayers * kWidth)),
        *Wout_m = device(std::vector<float>(kWidth * kClasses)),
        *Wout_v = device(std::vector<float>(kWidth * kClasses)), *bout_m = device(std::vector<float>(kClasses)),
        *bout_v = device(std::vector<float>(kClasses));
  float *X = device(std::vector<float>(kBatch * kWidth)),
        *Hs = device(std::vector<float>(size_t(kLayers + 1) * kBatch * kWidth)),
        *T = device(std::vector<float>(kBatch * kWidth)), *Z = device(std::vector<float>(kBatch * kClasses)),
        *loss = device(std::vector<float>(1));
  int* labels = nullptr;
  cudaMalloc(&labels, kBatch * sizeof(int));
  allocated.push_back(labels);
  cublasHandle_t handle;
  cublasCreate(&handle);

  std::vector<float> x(kBatch * kWidth), z(kBatch * kClasses);
  std::vector<int> y(kBatch);
  std::printf("%6s %10s %10s\n", "step", "loss", "accuracy");
  double accuracy = 0;
  for (int step = 1; step <= kSteps; ++step) {
    for (int b = 0; b < kBatch; ++b) {
      float u = coordinate(rng), v = coordinate(rng);
      float r = std::sqrt(u * u + v * v);
      y[b] = r < 0.6f ? 0 : r < 1.2f ? 1 : 2;
      x[b * kWidth] = u;
      x[b * kWidth + 1] = v;
    }
    cudaMemcpy(X, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(labels, y.data(), y.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaError_t status = residual_train_step(handle, X, labels, Ws, bs, Wout, bout, Hs, T, Z, loss, kLayers, kBatch,
                                             kWidth, kClasses, Ws_m, Ws_v, bs_m, bs_v, Wout_m, Wout_v, bout_m, bout_v,
                                             0.01f, 0.9f, 0.999f, 1e-8f, 1e-4f, step);
    if (status != cudaSuccess) {
      std::fprintf(stderr, "training step failed: %s\n", cudaGetErrorString(status));
      release(handle);
      return 1;
    }
    float l = 0;
    cudaMemcpy(&l, loss, sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(z.data(), Z, z.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int right = 0;
    for (int b = 0; b < kBatch; ++b) {
      int best = 0;
      for (int c = 1; c < kClasses; ++c)
        if (z[b * kClasses + c] > z[b * kClasses + best]) best = c;
      right += best == y[b];
    }
    accuracy = double(right) / kBatch;
    if (step == 1 || step % 30 == 0) std::printf("%6d %10.4f %9.1f%%\n", step, l, 100 * accuracy);
  }
  std::printf("accuracy on the last batch (unseen before its step): %.1f%%\n", 100 * accuracy);
  release(handle);
  return accuracy >= 0.9 ? 0 : 1;
}
