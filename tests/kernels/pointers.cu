// Kernels as tuned code writes them: pointer parameters advanced in place to a thread's row,
// local row pointers, and in-place updates. Each vjp leaves the caller's buffers as it got them.
#include <cassert>

#include "adjoint/annotations.h"

// Every thread advances inp and out to its row: the adjoints are read and written at the same
// rows (the vjp read row 0's seed and added into row 0).
// KERNEL: rows_advanced grid=2 block=32 inp=[320] out=[320] w=[8] C=8 N=40
__global__ void rows_advanced(const float* inp, float* out, const float* w, int C, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N) return;
  inp += idx * C;
  out += idx * C;
  for (int c = 0; c < C; ++c) out[c] = inp[c] * w[c] * inp[c];
}

// Local row pointers into the input and the output.
// KERNEL: rows_local grid=2 block=32 inp=[240] out=[240] C=6 N=40
__global__ void rows_local(const float* inp, float* out, int C, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N) return;
  const float* x = inp + idx * C;
  float* y = &out[idx * C];
  float sum = 0.0f;
  for (int c = 0; c < C; ++c) sum += x[c] * x[c];
  float scale = rsqrtf(sum / C + 1e-5f);
  for (int c = 0; c < C; ++c) y[c] = x[c] * scale;
}

// Rows passed on to device functions, as a local row pointer and as an offset written out: to a
// helper that is differentiated (its adjoint gets the row of the adjoint) and to one that is not
// (the row's largest element, a shift the log-sum-exp does not depend on).
__device__ float weighted_square_sum(const float* row, const float* w, int C) {
  float s = 0.0f;
  for (int c = 0; c < C; ++c) s += w[c] * row[c] * row[c];
  return s;
}

ADJOINT_NONDIFFERENTIABLE __device__ float row_largest(const float* row, int C) {
  float m = -1e30f;
  for (int c = 0; c < C; ++c) m = fmaxf(m, row[c]);
  return m;
}

// KERNEL: rows_to_helpers grid=2 block=32 inp=[240] w=[6] out=[40] lse=[40] C=6 N=40
__global__ void rows_to_helpers(const float* inp, const float* w, float* out, float* lse, int C, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N) return;
  const float* x = inp + idx * C;
  float m = row_largest(x, C);
  float sum = 0.0f;
  for (int c = 0; c < C; ++c) sum += expf(x[c] - m);
  lse[idx] = logf(sum) + m;
  out[idx] = weighted_square_sum(x, w, C) + 0.5f * weighted_square_sum(inp + idx * C + 1, w + 1, C - 1);
}

// A device function reading the next element: its pullback adds into the neighbour's adjoint,
// which the kernel's own add at the thread's index meets (that add was a plain +=: a race).
__device__ float next_squared(const float* x, int i, int n) { return i + 1 < n ? x[i + 1] * x[i + 1] : 0.0f; }

// KERNEL: with_next grid=2 block=32 x=[50] y=[50] n=50
__global__ void with_next(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i] + next_squared(x, i, n);
}

// An in-place bias: the vjp must not add the bias again (it left out holding the bias twice).
// KERNEL: bias_in_place grid=2 block=64 out=[96] bias=[8] C=8 n=96
__global__ void bias_in_place(float* out, const float* bias, int C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += bias[i % C];
}

// In place, and the reverse needs the old value: the vjp restores it.
// KERNEL: square_in_place grid=2 block=64 x=[100] n=100
__global__ void square_in_place(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * x[i] + 0.5f * x[i];
}

// A bias and a scale broadcast over rows of C, the last row partial and more threads than
// elements: each thread's adjoints of both in a slot of its own, their column sums added after
// the kernel, in a fixed order (so --deterministic takes it).
// KERNEL: bias_gelu_rows grid=5 block=64 x=[299] bias=[23] scale=[23] y=[299] C=23 n=299 deterministic
__global__ void bias_gelu_rows(const float* x, const float* bias, const float* scale, float* y, int C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float h = x[i] * scale[i % C] + bias[i % C];
  y[i] = h * 0.5f * (1.0f + tanhf(0.79788456f * (h + 0.044715f * h * h * h)));
}

// An optional bias and scale, tested against null as tuned kernels test them: checked given and
// not given (their adjoints, summed per column and per block, are then not written either).
// KERNEL: optional_bias grid=3 block=64 x=[150] bias=[4] scale=[1] y=[150] n=150
// KERNEL: optional_bias grid=3 block=64 x=[150] bias=null scale=null y=[150] n=150
// KERNEL: optional_bias grid=3 block=64 x=[150] bias=null scale=[1] y=[150] n=150 deterministic
__global__ void optional_bias(const float* x, const float* bias, const float* scale, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i] * x[i];
  if (bias != nullptr) v += bias[i % 4];
  if (!bias) v *= 0.5f;
  if (scale) v *= scale[0];
  y[i] = v;
}

// A bias over rows of 64 with 32-thread blocks and more blocks than run at once: each thread runs
// several of the forward's blocks, all on one column, and sums the bias's adjoint in a register
// (on the CPU execution two blocks of 32 threads run the eight, a row of 64 columns between them).
// KERNEL: bias_rows grid=8 block=32 x=[250] bias=[64] y=[250] C=64 n=250
// KERNEL: bias_rows grid=8 block=32 x=[250] bias=[64] y=[250] C=64 n=250 deterministic
__global__ void bias_rows(const float* x, const float* bias, float* y, int C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = tanhf(x[i] + bias[i % C]) * bias[i % C];
}

// Loads with cache hints and an assert, as tuned kernels write them: the loads are differentiated
// as loads, the assert kept.
// KERNEL: hinted_loads grid=2 block=64 x=[100] w=[100] y=[100] n=100
__global__ void hinted_loads(const float* x, const float* w, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(n > 0);
  if (i < n) y[i] = __ldg(&x[i]) * __ldcs(w + i) + __ldg(x + i) * __ldcg(&w[i]);
}

// Streaming stores, as tuned kernels write outputs they will not read again.
// KERNEL: streamed_store grid=2 block=64 x=[100] y=[100] n=100
__global__ void streamed_store(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) __stcs(&y[i], tanhf(x[i]) * x[i]);
}

// Stores through device functions: one writing an output element, one adding into a row in place
// (inlined: their stores are the kernel's own, left out of the vjp, which leaves y as it came).
__device__ void store_scaled(float* out, int at, float v, float s) { out[at] = s * v; }
__device__ void add_to_row(float* row, int C, float b) {
  for (int c = 0; c < C; ++c) row[c] += b * (c + 1);
}
// KERNEL: stores_through_helpers grid=2 block=32 x=[240] y=[240] C=6 N=40
__global__ void stores_through_helpers(const float* x, float* y, int C, int N) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= N) return;
  for (int c = 0; c < C; ++c) store_scaled(y, r * C + c, x[r * C + c] * x[r * C + c], 0.5f);
  add_to_row(y + r * C, C, 0.1f * sinf(x[r * C]));
}
