// Trains the MLP of mlp_train.cu with the training step Adjoint generated from it
// (mlp_train.train.cu): each step draws a fresh batch of a synthetic dataset (four Gaussian
// clusters in 16 dimensions), so the accuracy printed, measured before the step's update, is on
// samples the model has not trained on. Runs on the GPU (nvcc ... -lcublas), or on the CPU
// execution of kernels (g++ -x c++ -DADJOINT_CPU_EXECUTION -I runtime -I runtime/adjoint/cpu).
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "mlp_train.train.h"

namespace {

constexpr int kBatch = 256, kInputs = 16, kHidden = 64, kClasses = 4, kSteps = 150;

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

// Weights uniform in +-sqrt(6 / (fan_in + fan_out)), biases zero.
std::vector<float> weights(int in, int out, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> w(size_t(in) * out);
  for (float& x : w) x = u(rng) * std::sqrt(6.0f / float(in + out));
  return w;
}

}  // namespace

int main() {
  std::mt19937 rng(7);
  std::normal_distribution<float> noise(0.0f, 0.6f);
  std::uniform_int_distribution<int> pick(0, kClasses - 1);
  std::vector<float> centers(kClasses * kInputs);
  for (float& c : centers) c = std::uniform_real_distribution<float>(-1, 1)(rng);

  float *W1 = device(weights(kInputs, kHidden, rng)), *W2 = device(weights(kHidden, kHidden, rng)),
        *W3 = device(weights(kHidden, kClasses, rng));
  float *b1 = device(std::vector<float>(kHidden)), *b2 = device(std::vector<float>(kHidden)),
        *b3 = device(std::vector<float>(kClasses));
  float *X = device(std::vector<float>(kBatch * kInputs)), *H1 = device(std::vector<float>(kBatch * kHidden)),
        *H2 = device(std::vector<float>(kBatch * kHidden)), *Z = device(std::vector<float>(kBatch * kClasses)),
        *loss = device(std::vector<float>(1));
  int* labels = nullptr;
  cudaMalloc(&labels, kBatch * sizeof(int));
  allocated.push_back(labels);
  cublasHandle_t handle;
  cublasCreate(&handle);

  std::vector<float> x(kBatch * kInputs), z(kBatch * kClasses);
  std::vector<int> y(kBatch);
  std::printf("%6s %10s %10s\n", "step", "loss", "accuracy");
  double accuracy = 0;
  for (int step = 1; step <= kSteps; ++step) {
    for (int b = 0; b < kBatch; ++b) {
      y[b] = pick(rng);
      for (int d = 0; d < kInputs; ++d) x[b * kInputs + d] = centers[y[b] * kInputs + d] + noise(rng);
    }
    cudaMemcpy(X, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(labels, y.data(), y.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaError_t status = mlp_train_step(handle, X, labels, W1, b1, W2, b2, W3, b3, H1, H2, Z, loss, kBatch, kInputs,
                                        kHidden, kClasses, 0.2f);
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
    if (step == 1 || step % 15 == 0) std::printf("%6d %10.4f %9.1f%%\n", step, l, 100 * accuracy);
  }
  std::printf("accuracy on the last batch (unseen before its step): %.1f%%\n", 100 * accuracy);
  release(handle);
  return accuracy >= 0.95 ? 0 : 1;
}
