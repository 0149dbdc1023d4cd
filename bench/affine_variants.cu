// affine's generated vjp (tests/kernels/maps.cu: y = a x + b, with the adjoints of x, a and b)
// beside hand-written variants of the same work, to find where its time goes: its vjp moves five
// streams (x, y_bar, x_bar read, x_bar written, y_bar zeroed) against the forward's two, a floor
// ratio of 2.5x, and measured 3.5-3.7x on an H100. The variants: __restrict__ pointers; four of
// the virtual blocks' loads issued before any store; the forward's grid, a thread per element;
// the seed left unzeroed (what the vjp's convention costs).
//
//   scripts/h200.sh build   (generates the vjp with the tool and builds this with nvcc)
//   ./affine_variants
#include <cstdio>
#include <random>

#include "../tests/kernels/maps.cu"
#include "adjoint/cuda.h"
#include "affine.grad.h"
#include "timing.h"

// Each warp's sums of a_bar and b_bar, added by its first lane.
__device__ void add_warp_sums(float as, float bs, float* a_bar, float* b_bar) {
  as = adjoint::warp_sum(as, 32u);
  bs = adjoint::warp_sum(bs, 32u);
  if (threadIdx.x % 32 == 0) {
    atomicAdd(a_bar, as);
    atomicAdd(b_bar, bs);
  }
}

// v1: the generated loop with __restrict__ pointers; v4: the same, the seed left as it is (what
// the zeroing costs).
template <bool ZeroSeed>
__global__ void restricted(const float* __restrict__ x, int n, float a, float* __restrict__ x_bar,
                           float* __restrict__ y_bar, float* __restrict__ a_bar, float* __restrict__ b_bar,
                           unsigned virtual_blocks) {
  float as = 0.0f, bs = 0.0f;
  for (unsigned vb = blockIdx.x; vb < virtual_blocks; vb += gridDim.x) {
    int i = static_cast<int>(vb * blockDim.x + threadIdx.x);
    if (i < n) {
      float g = y_bar[i];
      as += g * x[i];
      x_bar[i] += g * a;
      bs += g;
      if (ZeroSeed) y_bar[i] = 0.0f;
    }
  }
  add_warp_sums(as, bs, a_bar, b_bar);
}
auto* const v1 = restricted<true>;
auto* const v4 = restricted<false>;

// v2: four virtual blocks per round, every load before any store.
__global__ void v2(const float* x, int n, float a, float* x_bar, float* y_bar, float* a_bar, float* b_bar,
                   unsigned virtual_blocks) {
  float as = 0.0f, bs = 0.0f;
  for (unsigned vb = blockIdx.x; vb < virtual_blocks; vb += 4 * gridDim.x) {
    float g[4], xv[4], xb[4];
    int idx[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      idx[k] = static_cast<int>((vb + k * gridDim.x) * blockDim.x + threadIdx.x);
      bool in = vb + k * gridDim.x < virtual_blocks && idx[k] < n;
      g[k] = in ? y_bar[idx[k]] : 0.0f;
      xv[k] = in ? x[idx[k]] : 0.0f;
      xb[k] = in ? x_bar[idx[k]] : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      bool in = vb + k * gridDim.x < virtual_blocks && idx[k] < n;
      if (in) {
        as += g[k] * xv[k];
        bs += g[k];
        x_bar[idx[k]] = xb[k] + g[k] * a;
        y_bar[idx[k]] = 0.0f;
      }
    }
  }
  add_warp_sums(as, bs, a_bar, b_bar);
}

// v3: the forward's grid, a thread per element, a warp's sums added atomically.
__global__ void v3(const float* x, int n, float a, float* x_bar, float* y_bar, float* a_bar, float* b_bar) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float as = 0.0f, bs = 0.0f;
  if (i < n) {
    float g = y_bar[i];
    as = g * x[i];
    bs = g;
    x_bar[i] += g * a;
    y_bar[i] = 0.0f;
  }
  add_warp_sums(as, bs, a_bar, b_bar);
}

int main() {
  const int n = 16777216;
  std::mt19937 rng(1);
  float *x = random_buffer(n, 1, rng), *y = random_buffer(n, 1, rng), *xb = random_buffer(n, 1, rng),
        *yb = random_buffer(n, 1, rng), *ab = random_buffer(1, 1, rng), *bb = random_buffer(1, 1, rng);
  dim3 grid(65536), block(256);
  int sms = 0, per = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  auto resident = [&](auto k) {
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k, 256, 0));
    return dim3(2 * sms * per);
  };
  double fwd = median_ms([&] { affine<<<grid, block>>>(x, y, 0.7f, -0.3f, n); }, 50);
  std::printf("forward %.4f ms\n", fwd);
  for (int round = 0; round < 3; ++round) {
    double t0 =
        median_ms([&] { CHECK(affine_vjp_launch(grid, block, 0, nullptr, x, y, 0.7f, -0.3f, n, xb, yb, ab, bb)); }, 50);
    double t1 = median_ms([&] { v1<<<resident(v1), block>>>(x, n, 0.7f, xb, yb, ab, bb, grid.x); }, 50);
    double t2 = median_ms([&] { v2<<<resident(v2), block>>>(x, n, 0.7f, xb, yb, ab, bb, grid.x); }, 50);
    double t3 = median_ms([&] { v3<<<grid, block>>>(x, n, 0.7f, xb, yb, ab, bb); }, 50);
    double t4 = median_ms([&] { v4<<<resident(v4), block>>>(x, n, 0.7f, xb, yb, ab, bb, grid.x); }, 50);
    std::printf("round %d: generated %.4f, restrict %.4f, loads first x4 %.4f, forward grid %.4f, no zeroing %.4f ms\n",
                round, t0, t1, t2, t3, t4);
  }
}
