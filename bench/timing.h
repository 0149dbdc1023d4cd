// What the GPU benchmarks share: a check of every CUDA call, the median time of a piece of work
// measured with CUDA events (../shared/BENCHMARKS.md: median of many timed repetitions after
// warm-up), buffers of fresh random data, and the check that a training step replays as a CUDA
// graph.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e = (call);                                                           \
    if (e != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

// The median time of `reps` runs of `work`, in ms, after `warmup` runs.
inline double median_ms(const std::function<void()>& work, int reps, int warmup = 3) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int k = 0; k < warmup; ++k) work();
  std::vector<float> times;
  for (int k = 0; k < reps; ++k) {
    CHECK(cudaEventRecord(start));
    work();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// n floats on the device, normal with deviation `scale`.
inline float* random_buffer(size_t n, float scale, std::mt19937& rng) {
  std::vector<float> host(n);
  std::normal_distribution<float> normal(0.0f, scale);
  for (float& x : host) x = normal(rng);
  float* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMemcpy(d, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

// Ten calls of the training step `step` on one batch lower its loss (the float at `loss` on the
// device), printed after `workload`; then the device memory held since `free_at_start` bytes
// were free. False, with the reason printed, when the loss did not decrease.
inline bool loss_decreases(const std::function<void()>& step, const float* loss, const char* workload,
                           size_t free_at_start) {
  float first = 0, last = 0;
  for (int i = 0; i < 10; ++i) {
    step();
    CHECK(cudaMemcpy(i == 0 ? &first : &last, loss, sizeof(float), cudaMemcpyDeviceToHost));
  }
  std::printf("%s: loss %.5f after the first step, %.5f after ten\n", workload, first, last);
  if (!(last < first) || !std::isfinite(last)) {
    std::printf("FAILED: the loss did not decrease\n");
    return false;
  }
  size_t free_now = 0, total = 0;
  CHECK(cudaMemGetInfo(&free_now, &total));
  std::printf("device memory held: %.0f MiB (buffers, the step's scratch, cuBLAS's workspace)\n",
              double(free_at_start - free_now) / (1 << 20));
  return true;
}

// The training step `step` captured into a CUDA graph (it allocates nothing and does not
// synchronize after its first call; built with --default-stream per-thread, its launches go to the
// capturable per-thread stream) and replayed: three replays must give the parameters (`params`,
// of `sizes` floats) that three calls give. The replay's median time in ms, or a negative number
// when it differs.
inline double graph_replay_ms(const std::function<void()>& step, const std::vector<float*>& params,
                              const std::vector<size_t>& sizes) {
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
    return -1;
  }
  return median_ms([&] { CHECK(cudaGraphLaunch(replay, cudaStreamPerThread)); }, 50, 5);
}
