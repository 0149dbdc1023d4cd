// Cooperative groups as tuned training kernels use them: a block and its warps as tiles of 32
// (cg::tiled_partition<32>), a tile's rank and its place in the block (one warp per row:
// blockIdx.x * warp.meta_group_size() + warp.meta_group_rank()), cg::reduce with cg::plus and
// cg::greater, a tile's shuffles, and block.sync() around shared memory.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// Layer normalization, one warp per row, saving each row's mean and reciprocal standard
// deviation where the caller asks for them (mean, rstd may be null).
// KERNEL: warp_layernorm grid=2 block=64 out=[192] mean=[6] rstd=null inp=[192] weight=[32] bias=[32] N=3 C=32
// KERNEL: warp_layernorm grid=3 block=64 out=[480] mean=null rstd=[5] inp=[480] weight=[96] bias=[96] N=5 C=96
// BENCH: warp_layernorm grid=2048 block=256 out=[8388608] mean=[16384] rstd=[16384] inp=[8388608] weight=[512] bias=[512] N=16384 C=512
__global__ void warp_layernorm(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                               const float* bias, int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (idx >= N) return;
  const float* x = inp + idx * C;
  float sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) sum += x[i];
  sum = cg::reduce(warp, sum, cg::plus<float>{});
  float m = sum / C;
  if (warp.thread_rank() == 0 && mean != nullptr) __stcs(mean + idx, m);
  sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) {
    float diff = x[i] - m;
    sum += diff * diff;
  }
  sum = cg::reduce(warp, sum, cg::plus<float>{});
  float s = rsqrtf(sum / C + 1e-5f);
  if (warp.thread_rank() == 0 && rstd != nullptr) __stcs(rstd + idx, s);
  float* o = out + idx * C;
  for (int c = warp.thread_rank(); c < C; c += warp.size()) {
    float n = s * (__ldcs(x + c) - m);
    __stcs(o + c, n * weight[c] + bias[c]);
  }
}

// Softmax of rows, one warp per row: the maximum by cg::greater, the sum by cg::plus, both into
// fresh locals.
// KERNEL: warp_softmax grid=2 block=64 out=[200] inp=[200] N=4 C=50
// BENCH: warp_softmax grid=2048 block=256 out=[8388608] inp=[8388608] N=16384 C=512
__global__ void warp_softmax(float* out, const float* inp, int N, int C) {
  namespace cg = cooperative_groups;
  cg::thread_block block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row >= N) return;
  const float* x = inp + row * C;
  float maxval = -INFINITY;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) maxval = fmaxf(maxval, x[i]);
  float offset = cg::reduce(warp, maxval, cg::greater<float>{});
  float sumval = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) sumval += expf(x[i] - offset);
  float total = cg::reduce(warp, sumval, cg::plus<float>{});
  for (int i = warp.thread_rank(); i < C; i += warp.size()) out[row * C + i] = expf(x[i] - offset) / total;
}

// A block's sum of squares: each warp reduces with the tile's shfl_down, warp sums meet in shared
// memory between block.sync() and cg::sync(block), and the first warp adds them.
// KERNEL: block_sum_squares_cg grid=3 block=128 x=[300] out=[1] n=300
__global__ void block_sum_squares_cg(const double* x, double* out, int n) {
  __shared__ double partial[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * block.size() + block.thread_rank();
  double v = i < n ? x[i] * x[i] : 0.0;
  for (int o = warp.size() / 2; o > 0; o /= 2) v += warp.shfl_down(v, o);
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = v;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    double w = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.0;
    w = cg::reduce(warp, w, cg::plus<double>());
    if (block.thread_rank() == 0) atomicAdd(out, w);
  }
  cg::sync(block);
}

// A reduction inside an expression, the minimum by cg::less, and a broadcast with the tile's shfl.
// KERNEL: warp_scaled grid=2 block=64 x=[128] y=[128] n=128
__global__ void warp_scaled(const float* x, float* y, int n) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 1.0f;
  float lowest = cg::reduce(warp, v, cg::less<float>());
  float first = warp.shfl(v, 0);
  if (i < n) y[i] = v * first / (2.0f + cg::reduce(warp, v * v, cg::plus<float>())) - lowest;
}

// Max and min pooling of rows, one warp per row: each lane's running maximum (the if form) and
// minimum (fminf), then the warp's by cg::reduce. The derivative reaches the one element that
// holds each extreme.
// KERNEL: warp_extremes grid=2 block=64 inp=[200] out=[4] N=4 C=50
// KERNEL: warp_extremes grid=1 block=64 inp=[40] out=[2] N=2 C=20
__global__ void warp_extremes(const float* inp, float* out, int N, int C) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row >= N) return;
  float high = -INFINITY, low = INFINITY;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) {
    if (inp[row * C + i] > high) high = inp[row * C + i];
    low = fminf(low, inp[row * C + i]);
  }
  high = cg::reduce(warp, high, cg::greater<float>{});
  low = cg::reduce(warp, low, cg::less<float>{});
  if (warp.thread_rank() == 0) out[row] = high * high - 0.5f * low;
}


// A device helper that makes its own tile: the warp's sum, called by every lane.
__device__ float warp_total(float v) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  return cg::reduce(warp, v, cg::plus<float>());
}

// Each element's share of its warp's sum of exponentials. The threads past n take part in the
// sum with 0 and read nothing: the derivatives may not read x[i] or x_dot[i] there either.
// KERNEL: warp_fraction grid=2 block=64 x=[120] y=[120] n=120
__global__ void warp_fraction(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? expf(x[i]) : 0.0f;
  float total = warp_total(v);
  if (i < n) y[i] = v / total;
}
