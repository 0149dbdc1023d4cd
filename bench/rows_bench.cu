// Row kernels' generated vjps against the backward a CUDA engineer writes by hand for them (the
// bar of issue 11: within 1.5x), in one run: warp_softmax and warp_layernorm of
// tests/kernels/groups.cu (one warp per row, as llm.c writes them), thread_softmax of
// tests/kernels/rows.cu (a thread per row, llm.c's first softmax: its hand-written backward is the
// warp-per-row one) and W3's softmax cross-entropy (samples/transformer_train, a warp per row over
// 50304 classes). Each hand-written backward
// follows the generated code's convention (it adds into the input's adjoint; the generated vjp
// also zeroes the seed it consumed) and uses what its forward saved where the forward saves it
// (softmax's output, layernorm's mean and rstd), as hand-written training code does. Before timing,
// both results are compared.
//
//   scripts/h200.sh build   (generates the vjps with the tool and builds this with nvcc)
//   ./rows_bench
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "adjoint/cuda.h"
#include "softmax_cross_entropy.grad.h"
#include "thread_softmax.grad.h"
#include "timing.h"
#include "warp_layernorm.grad.h"
#include "warp_softmax.grad.h"

// The forward kernels, as the tests and the sample define them.
#include "../samples/transformer_train/transformer_train.cu"
#include "../tests/kernels/groups.cu"
#define row_max rows_row_max  // rows.cu's helper, apart from the sample's of the same parameters
#include "../tests/kernels/rows.cu"
#undef row_max

namespace {

// inp_bar += out * (out_bar - sum(out * out_bar)), a warp per row, from the saved output.
__global__ void softmax_backward(const float* out, const float* out_bar, float* inp_bar, int N, int C) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (row >= N) return;
  const float *y = out + static_cast<long>(row) * C, *dy = out_bar + static_cast<long>(row) * C;
  float dot = 0.0f;
  for (int c = lane; c < C; c += 32) dot += y[c] * dy[c];
  for (int o = 16; o > 0; o /= 2) dot += __shfl_xor_sync(0xffffffffu, dot, o);
  float* dx = inp_bar + static_cast<long>(row) * C;
  for (int c = lane; c < C; c += 32) dx[c] += y[c] * (dy[c] - dot);
}

// llm.c's layernorm backward, a warp per row from the saved mean and rstd; weight and bias
// adjoints summed per block in shared memory, then added once per block and column.
__global__ void layernorm_backward(const float* out_bar, const float* inp, const float* weight, const float* mean,
                                   const float* rstd, float* inp_bar, float* weight_bar, float* bias_bar, int N,
                                   int C) {
  extern __shared__ float shared[];  // 2 * C: bias_bar, then weight_bar, of this block
  float *block_bias = shared, *block_weight = shared + C;
  for (int c = threadIdx.x; c < 2 * C; c += blockDim.x) shared[c] = 0.0f;
  __syncthreads();
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (row < N) {
    const float *x = inp + static_cast<long>(row) * C, *dy = out_bar + static_cast<long>(row) * C;
    float m = mean[row], s = rstd[row];
    float dnorm_mean = 0.0f, dnorm_norm_mean = 0.0f;
    for (int c = lane; c < C; c += 32) {
      float dnorm = weight[c] * dy[c];
      dnorm_mean += dnorm;
      dnorm_norm_mean += dnorm * (x[c] - m) * s;
    }
    for (int o = 16; o > 0; o /= 2) {
      dnorm_mean += __shfl_xor_sync(0xffffffffu, dnorm_mean, o);
      dnorm_norm_mean += __shfl_xor_sync(0xffffffffu, dnorm_norm_mean, o);
    }
    dnorm_mean /= C;
    dnorm_norm_mean /= C;
    float* dx = inp_bar + static_cast<long>(row) * C;
    for (int c = lane; c < C; c += 32) {
      float norm = (x[c] - m) * s, dnorm = weight[c] * dy[c];
      atomicAdd(&block_bias[c], dy[c]);
      atomicAdd(&block_weight[c], norm * dy[c]);
      dx[c] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * s;
    }
  }
  __syncthreads();
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    atomicAdd(&bias_bar[c], block_bias[c]);
    atomicAdd(&weight_bar[c], block_weight[c]);
  }
}

// logits_bar += (softmax(z) - onehot(label)) * loss_bar / rows, a warp per row, as llm.c's fused
// classifier computes it (without the loss, which the vjp does not write).
__global__ void cross_entropy_backward(const float* logits, const int* labels, const float* loss_bar, float* logits_bar,
                                       int rows, int classes) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* z = logits + static_cast<long>(row) * classes;
  float m = -INFINITY, sum = 0.0f;
  for (int c = lane; c < classes; c += 32) m = fmaxf(m, z[c]);
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  for (int c = lane; c < classes; c += 32) sum += expf(z[c] - m);
  for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  float scale = loss_bar[0] / rows, label = labels[row];
  float* dz = logits_bar + static_cast<long>(row) * classes;
  for (int c = lane; c < classes; c += 32) dz[c] += (expf(z[c] - m) / sum - (c == label ? 1.0f : 0.0f)) * scale;
}

float* zeros(size_t n) {
  float* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMemset(d, 0, n * sizeof(float)));
  return d;
}

// The largest difference between two device buffers, relative to the largest element.
double difference(const float* a, const float* b, size_t n) {
  std::vector<float> x(n), y(n);
  CHECK(cudaMemcpy(x.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(y.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost));
  double most = 0, scale = 0;
  for (size_t i = 0; i < n; ++i) {
    most = std::max(most, std::fabs(double(x[i]) - y[i]));
    scale = std::max(scale, std::fabs(double(y[i])));
  }
  return most / (scale > 0 ? scale : 1);
}

// `fresh`: the generated vjp launched with adjoint::Bars::fresh (input adjoints stored, the
// seeds it consumed left as they are), as a training step launches it.
void report(const char* kernel, double forward, double generated, double fresh, double hand, double agreement) {
  std::printf(
      "%-22s forward %.4f ms, generated vjp %.4f ms, hand-written backward %.4f ms: %.2fx the "
      "hand-written (%.2fx the forward); results agree to %.1e; with adjoint::Bars::fresh %.4f ms: %.2fx the "
      "hand-written\n",
      kernel, forward, generated, hand, generated / hand, generated / forward, agreement, fresh, fresh / hand);
}

// Copies `seed` into `bar` first: the generated vjp zeroes the seed it consumed.
void refill(float* bar, const float* seed, size_t n) {
  CHECK(cudaMemcpyAsync(bar, seed, n * sizeof(float), cudaMemcpyDeviceToDevice));
}

void softmax(std::mt19937& rng) {
  const int N = 16384, C = 512, threads = 256, grid = N * 32 / threads;
  size_t n = size_t(N) * C;
  float *inp = random_buffer(n, 1.0f, rng), *out = zeros(n), *seed = random_buffer(n, 1.0f, rng);
  float *out_bar = zeros(n), *inp_bar = zeros(n), *hand_bar = zeros(n);
  double forward = median_ms([&] { warp_softmax<<<grid, threads>>>(out, inp, N, C); }, 20);
  refill(out_bar, seed, n);
  CHECK(warp_softmax_vjp_launch(grid, threads, 0, 0, out, inp, N, C, out_bar, inp_bar));
  softmax_backward<<<grid, threads>>>(out, seed, hand_bar, N, C);
  double agreement = difference(inp_bar, hand_bar, n);
  double generated =
      median_ms([&] { CHECK(warp_softmax_vjp_launch(grid, threads, 0, 0, out, inp, N, C, out_bar, inp_bar)); }, 20);
  double fresh = median_ms(
      [&] {
        CHECK(warp_softmax_vjp_launch(grid, threads, 0, 0, out, inp, N, C, out_bar, inp_bar, adjoint::Bars::fresh));
      },
      20);
  double hand = median_ms([&] { softmax_backward<<<grid, threads>>>(out, seed, hand_bar, N, C); }, 20);
  report("warp_softmax", forward, generated, fresh, hand, agreement);
}

// llm.c's first softmax, a thread per row, at its BENCH line's shape; the hand-written backward
// is softmax_backward, a warp per row.
void thread_per_row_softmax(std::mt19937& rng) {
  const int N = 32768, C = 1024, threads = 128, grid = N / threads;
  size_t n = size_t(N) * C;
  float *x = random_buffer(n, 1.0f, rng), *y = zeros(n), *seed = random_buffer(n, 1.0f, rng);
  float *y_bar = zeros(n), *x_bar = zeros(n), *hand_bar = zeros(n);
  double forward = median_ms([&] { thread_softmax<<<grid, threads>>>(x, y, N, C); }, 20);
  refill(y_bar, seed, n);
  CHECK(thread_softmax_vjp_launch(grid, threads, 0, 0, x, y, N, C, x_bar, y_bar));
  softmax_backward<<<N * 32 / 256, 256>>>(y, seed, hand_bar, N, C);
  double agreement = difference(x_bar, hand_bar, n);
  double generated =
      median_ms([&] { CHECK(thread_softmax_vjp_launch(grid, threads, 0, 0, x, y, N, C, x_bar, y_bar)); }, 20);
  double fresh = median_ms(
      [&] { CHECK(thread_softmax_vjp_launch(grid, threads, 0, 0, x, y, N, C, x_bar, y_bar, adjoint::Bars::fresh)); },
      20);
  double hand = median_ms([&] { softmax_backward<<<N * 32 / 256, 256>>>(y, seed, hand_bar, N, C); }, 20);
  report("thread_softmax", forward, generated, fresh, hand, agreement);
}

void layernorm(std::mt19937& rng) {
  const int N = 16384, C = 512, threads = 256, grid = N * 32 / threads;
  size_t n = size_t(N) * C;
  float *inp = random_buffer(n, 1.0f, rng), *weight = random_buffer(C, 1.0f, rng), *bias = random_buffer(C, 1.0f, rng);
  float *out = zeros(n), *mean = zeros(N), *rstd = zeros(N), *seed = random_buffer(n, 1.0f, rng);
  // mean and rstd are outputs too: their seeds are zero
  float *out_bar = zeros(n), *mean_bar = zeros(N), *rstd_bar = zeros(N), *inp_bar = zeros(n);
  float *weight_bar = zeros(C), *bias_bar = zeros(C);
  float *hand_inp = zeros(n), *hand_weight = zeros(C), *hand_bias = zeros(C);
  size_t shared = 2 * C * sizeof(float);
  double forward = median_ms([&] { warp_layernorm<<<grid, threads>>>(out, mean, rstd, inp, weight, bias, N, C); }, 20);
  refill(out_bar, seed, n);
  CHECK(warp_layernorm_vjp_launch(grid, threads, 0, 0, out, mean, rstd, inp, weight, bias, N, C, out_bar, mean_bar,
                                  rstd_bar, inp_bar, weight_bar, bias_bar));
  layernorm_backward<<<grid, threads, shared>>>(seed, inp, weight, mean, rstd, hand_inp, hand_weight, hand_bias, N, C);
  double agreement = std::max(difference(inp_bar, hand_inp, n), difference(weight_bar, hand_weight, C));
  double generated = median_ms(
      [&] {
        CHECK(warp_layernorm_vjp_launch(grid, threads, 0, 0, out, mean, rstd, inp, weight, bias, N, C, out_bar,
                                        mean_bar, rstd_bar, inp_bar, weight_bar, bias_bar));
      },
      20);
  double fresh = median_ms(
      [&] {
        CHECK(warp_layernorm_vjp_launch(grid, threads, 0, 0, out, mean, rstd, inp, weight, bias, N, C, out_bar,
                                        mean_bar, rstd_bar, inp_bar, weight_bar, bias_bar, adjoint::Bars::fresh));
      },
      20);
  double hand = median_ms(
      [&] {
        layernorm_backward<<<grid, threads, shared>>>(seed, inp, weight, mean, rstd, hand_inp, hand_weight, hand_bias,
                                                      N, C);
      },
      20);
  report("warp_layernorm", forward, generated, fresh, hand, agreement);
}

void cross_entropy(std::mt19937& rng) {
  const int rows = 8192, classes = 50304, threads = 256, grid = rows * 32 / threads;
  size_t n = size_t(rows) * classes;
  float *logits = random_buffer(n, 2.0f, rng), *loss = zeros(1), *loss_bar = zeros(1), *seed = zeros(1);
  float *logits_bar = zeros(n), *hand_bar = zeros(n);
  std::vector<int> host_labels(rows);
  for (int& l : host_labels) l = static_cast<int>(rng() % classes);
  int* labels = nullptr;
  CHECK(cudaMalloc(&labels, rows * sizeof(int)));
  CHECK(cudaMemcpy(labels, host_labels.data(), rows * sizeof(int), cudaMemcpyHostToDevice));
  float one = 1.0f;
  CHECK(cudaMemcpy(seed, &one, sizeof(float), cudaMemcpyHostToDevice));
  double forward =
      median_ms([&] { softmax_cross_entropy<<<grid, threads>>>(logits, labels, loss, rows, classes); }, 20);
  refill(loss_bar, seed, 1);
  CHECK(
      softmax_cross_entropy_vjp_launch(grid, threads, 0, 0, logits, labels, loss, rows, classes, logits_bar, loss_bar));
  cross_entropy_backward<<<grid, threads>>>(logits, labels, seed, hand_bar, rows, classes);
  double agreement = difference(logits_bar, hand_bar, n);
  // The seed, a single float, stays 1 during the timed runs: the vjp's zeroing of it is undone by
  // one copy per run, in both.
  double generated = median_ms(
      [&] {
        refill(loss_bar, seed, 1);
        CHECK(softmax_cross_entropy_vjp_launch(grid, threads, 0, 0, logits, labels, loss, rows, classes, logits_bar,
                                               loss_bar));
      },
      20);
  double fresh = median_ms(
      [&] {
        refill(loss_bar, seed, 1);
        CHECK(softmax_cross_entropy_vjp_launch(grid, threads, 0, 0, logits, labels, loss, rows, classes, logits_bar,
                                               loss_bar, adjoint::Bars::fresh));
      },
      20);
  double hand = median_ms(
      [&] {
        refill(loss_bar, seed, 1);
        cross_entropy_backward<<<grid, threads>>>(logits, labels, loss_bar, hand_bar, rows, classes);
      },
      20);
  report("softmax_cross_entropy", forward, generated, fresh, hand, agreement);
}

}  // namespace

int main() {
  std::mt19937 rng(7);
  softmax(rng);
  thread_per_row_softmax(rng);
  layernorm(rng);
  cross_entropy(rng);
  CHECK(cudaGetLastError());
  return 0;
}
