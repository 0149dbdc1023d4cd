// W1 on the GPU (../shared/BENCHMARKS.md): the generated w1_loss_vjp against the byte floor and
// two hand-written adjoints, in one run, after checking every gradient against a float64 CPU
// reference. Also the training steps: the one Adjoint generates from the host function `w1`
// (w1_loss.train.cu: the loss, its gradient and the SGD update, the loss kernel run with its
// pullback), and hand-assembled ones from the user's forward, the generated vjp and an update.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I samples/w1_loss bench/w1_bench.cu samples/w1_loss/w1_loss.grad.cu
//        samples/w1_loss/w1_loss.train.cu
//   ./w1_bench [log2 n]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "adjoint/cuda.h"
#include "timing.h"
#include "w1_loss.cu"
#include "w1_loss.grad.h"
#include "w1_loss.train.h"

// Hand-written adjoint 1: every thread adds its terms with atomicAdd.
__global__ void vjp_atomic_per_thread(const float* x, const float* y, const float* a, const float* b, int n,
                                      float* a_bar, float* b_bar, const float* loss_bar) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float h = tanhf(a[0] * x[i] + b[0]);
  float g = loss_bar[0] * 2.0f * (h - y[i]) / n * (1.0f - h * h);
  atomicAdd(a_bar, g * x[i]);
  atomicAdd(b_bar, g);
}

// Hand-written adjoint 2: a warp-shuffle and shared-memory block reduction, one atomicAdd per block.
__global__ void vjp_atomic_per_block(const float* x, const float* y, const float* a, const float* b, int n,
                                     float* a_bar, float* b_bar, const float* loss_bar) {
  __shared__ float sums[2][32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float ga = 0, gb = 0;
  if (i < n) {
    float h = tanhf(a[0] * x[i] + b[0]);
    gb = loss_bar[0] * 2.0f * (h - y[i]) / n * (1.0f - h * h);
    ga = gb * x[i];
  }
  for (int o = 16; o > 0; o /= 2) {
    ga += __shfl_down_sync(0xffffffffu, ga, o);
    gb += __shfl_down_sync(0xffffffffu, gb, o);
  }
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) sums[0][warp] = ga, sums[1][warp] = gb;
  __syncthreads();
  if (warp == 0) {
    int warps = blockDim.x / 32;
    ga = lane < warps ? sums[0][lane] : 0.0f;
    gb = lane < warps ? sums[1][lane] : 0.0f;
    for (int o = 16; o > 0; o /= 2) {
      ga += __shfl_down_sync(0xffffffffu, ga, o);
      gb += __shfl_down_sync(0xffffffffu, gb, o);
    }
    if (lane == 0) atomicAdd(a_bar, ga), atomicAdd(b_bar, gb);
  }
}

__global__ void sgd_update(float* a, float* b, const float* a_bar, const float* b_bar, float rate) {
  a[0] -= rate * a_bar[0];
  b[0] -= rate * b_bar[0];
}

int main(int argc, char** argv) {
  int log2n = argc > 1 ? std::atoi(argv[1]) : 26;
  int n = 1 << log2n;
  const int threads = 256;
  dim3 grid((n + threads - 1) / threads), block(threads);
  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = normal(rng);
    hy[i] = std::tanh(0.8f * hx[i] - 0.3f) + 0.1f * normal(rng);
  }
  float ha = 0.5f, hb = 0.1f, one = 1.0f;
  // float64 reference of the loss, d loss / d a and d loss / d b
  double ref_loss = 0, ref_a = 0, ref_b = 0;
  for (int i = 0; i < n; ++i) {
    double h = std::tanh(double(ha) * hx[i] + double(hb));
    double g = 2.0 * (h - hy[i]) / n * (1.0 - h * h);
    ref_loss += (h - hy[i]) * (h - hy[i]) / n;
    ref_a += g * hx[i];
    ref_b += g;
  }
  float *x, *y, *a, *b, *loss, *a_bar, *b_bar, *loss_bar, *copy;
  CHECK(cudaMalloc(&x, sizeof(float) * n));
  CHECK(cudaMalloc(&y, sizeof(float) * n));
  CHECK(cudaMalloc(&copy, sizeof(float) * n * 2));
  for (float** p : {&a, &b, &loss, &a_bar, &b_bar, &loss_bar}) CHECK(cudaMalloc(p, sizeof(float)));
  CHECK(cudaMemcpy(x, hx.data(), sizeof(float) * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, hy.data(), sizeof(float) * n, cudaMemcpyHostToDevice));
  auto reset = [&] {
    CHECK(cudaMemcpy(a, &ha, sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, &hb, sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(loss_bar, &one, sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(a_bar, 0, sizeof(float)));
    CHECK(cudaMemset(b_bar, 0, sizeof(float)));
    CHECK(cudaMemset(loss, 0, sizeof(float)));
  };

  struct Variant {
    const char* name;
    std::function<void()> run;
  };
  std::vector<Variant> variants{
      {"generated w1_loss_vjp_launch (block sums added in a fixed order)",
       [&] { CHECK(w1_loss_vjp_launch(grid, block, 0, 0, x, y, a, b, loss, n, a_bar, b_bar, loss_bar)); }},
      {"generated w1_loss_vjp, forward's grid, no block sums (atomic per block)",
       [&] {
         CHECK(adjoint::launch(w1_loss_vjp, grid, block, 0, 0, x, y, a, b, loss, n, a_bar, b_bar, loss_bar,
                               adjoint::BlockSums{}, grid.x));
       }},
      {"hand-written: atomicAdd per thread",
       [&] {
         CHECK(adjoint::launch(vjp_atomic_per_thread, grid, block, 0, 0, x, y, a, b, n, a_bar, b_bar, loss_bar));
       }},
      {"hand-written: block reduction, atomicAdd per block",
       [&] { CHECK(adjoint::launch(vjp_atomic_per_block, grid, block, 0, 0, x, y, a, b, n, a_bar, b_bar, loss_bar)); }},
  };
  std::printf("W1, n = 2^%d, %d threads per block, %u blocks; reference (float64): a_bar %.9e, b_bar %.9e\n", log2n,
              threads, grid.x, ref_a, ref_b);
  double floor_ms =
      median_ms([&] { CHECK(cudaMemcpyAsync(copy, x, sizeof(float) * n, cudaMemcpyDeviceToDevice)); }, 20);
  std::printf("floor: read x and y once (8n bytes) = device copy of x (4n read + 4n written): %.4f ms\n\n", floor_ms);
  std::printf("%-68s %10s %8s %12s %12s %s\n", "adjoint", "ms", "/floor", "a_bar err", "b_bar err",
              "bitwise repeatable");
  for (const Variant& v : variants) {
    float first[2] = {0, 0}, second[2] = {0, 0};
    for (float* out : {first, second}) {
      reset();
      v.run();
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(&out[0], a_bar, sizeof(float), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(&out[1], b_bar, sizeof(float), cudaMemcpyDeviceToHost));
    }
    bool slow = std::string(v.name).find("per thread") != std::string::npos;
    double ms = median_ms(v.run, slow ? 3 : 50, slow ? 1 : 3);
    std::printf("%-68s %10.4f %8.2f %12.2e %12.2e %s\n", v.name, ms, ms / floor_ms,
                std::fabs(first[0] - ref_a) / std::fabs(ref_a), std::fabs(first[1] - ref_b) / std::fabs(ref_b),
                first[0] == second[0] && first[1] == second[1] ? "yes" : "no");
  }
  // Training steps: the user's forward as written (its per-thread atomicAdd), the generated
  // vjp, the update; and without the loss value (the vjp recomputes what it needs).
  double forward_ms = median_ms([&] { CHECK(adjoint::launch(w1_loss, grid, block, 0, 0, x, y, a, b, loss, n)); }, 3, 1);
  auto step_without_loss = [&] {
    CHECK(cudaMemsetAsync(a_bar, 0, sizeof(float)));
    CHECK(cudaMemsetAsync(b_bar, 0, sizeof(float)));
    CHECK(w1_loss_vjp_launch(grid, block, 0, 0, x, y, a, b, loss, n, a_bar, b_bar, loss_bar));
    CHECK(adjoint::launch(sgd_update, dim3(1), dim3(1), 0, 0, a, b, a_bar, b_bar, 0.1f));
  };
  double step_ms = median_ms(step_without_loss, 50);
  std::printf("\nuser's forward as written (atomicAdd per thread): %.4f ms\n", forward_ms);
  std::printf("training step, user's forward + generated vjp + SGD: %.4f ms\n", forward_ms + step_ms);
  std::printf("training step without the loss value, generated vjp + SGD: %.4f ms (%.2f x floor)\n", step_ms,
              step_ms / floor_ms);
  // The generated step: one call from the parameters as they are to the loss and the update.
  const float lr = 0.1f;
  reset();
  CHECK(w1_train_step(x, y, a, b, loss, n, lr));
  CHECK(cudaDeviceSynchronize());
  float got[3];
  float* outputs[3] = {loss, a, b};
  for (int k = 0; k < 3; ++k) CHECK(cudaMemcpy(&got[k], outputs[k], sizeof(float), cudaMemcpyDeviceToHost));
  double want[3] = {ref_loss, ha - lr * ref_a, hb - lr * ref_b};
  std::printf("generated w1_train_step against float64: loss %.3e, a %.3e, b %.3e relative error\n",
              std::fabs(got[0] - want[0]) / std::fabs(want[0]), std::fabs(got[1] - want[1]) / std::fabs(want[1]),
              std::fabs(got[2] - want[2]) / std::fabs(want[2]));
  double train_ms = median_ms([&] { CHECK(w1_train_step(x, y, a, b, loss, n, lr)); }, 50);
  std::printf("generated training step (w1_train_step: loss, gradient, SGD): %.4f ms (%.2f x floor)\n", train_ms,
              train_ms / floor_ms);
  return 0;
}
