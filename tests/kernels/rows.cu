// Kernels with structure: a stencil with halo reads through shared memory, one block per row
// (softmax, layer normalization), and a matrix-vector product.

// A three-point stencil; each block stages its elements and a halo of one on each side.
// KERNEL: stencil_halo grid=3 block=64 x=[180] y=[180] n=180
// BENCH: stencil_halo grid=262144 block=64 x=[16777216] y=[16777216] n=16777216
__global__ void stencil_halo(const float* x, float* y, int n) {
  __shared__ float tile[66];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t + 1] = i < n ? x[i] : 0.0f;
  if (t == 0) tile[0] = i > 0 ? x[i - 1] : 0.0f;
  if (t == static_cast<int>(blockDim.x) - 1) tile[t + 2] = i + 1 < n ? x[i + 1] : 0.0f;
  __syncthreads();
  if (i < n) y[i] = 0.25f * tile[t] + 0.5f * tile[t + 1] + 0.25f * tile[t + 2] * tile[t + 2];
}

#include "adjoint/annotations.h"

// The row's maximum, by one warp. Softmax does not depend on the shift it subtracts, so the
// shift is a constant to differentiation (and its running maximum needs no tape).
ADJOINT_NONDIFFERENTIABLE __device__ float row_max(const float* x, int row, int cols) {
  float m = -1e30f;
  for (int c = threadIdx.x; c < cols; c += 32) m = fmaxf(m, x[row * cols + c]);
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  return m;
}

// One block of 32 threads per row: the row's maximum and sum by warp shuffles.
// KERNEL: row_softmax grid=6 block=32 x=[384] y=[384] cols=64
// Under --deterministic the adjoint of x is a plain += (each thread's columns are its own in blocks
// of at most 32 threads, which the launcher checks), where the atomics are kept otherwise.
// KERNEL: row_softmax grid=6 block=32 x=[384] y=[384] cols=64 deterministic
// BENCH: row_softmax grid=16384 block=32 x=[16777216] y=[16777216] cols=1024
__global__ void row_softmax(const float* x, float* y, int cols) {
  int row = blockIdx.x;
  int lane = threadIdx.x;
  float m = row_max(x, row, cols);
  float sum = 0.0f;
  for (int c = lane; c < cols; c += 32) sum += expf(x[row * cols + c] - m);
  for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  for (int c = lane; c < cols; c += 32) y[row * cols + c] = expf(x[row * cols + c] - m) / sum;
}

// Layer normalization of rows with a gain and a bias, one warp per row.
// KERNEL: row_layernorm grid=4 block=32 x=[256] gamma=[64] beta=[64] y=[256] cols=64
// BENCH: row_layernorm grid=16384 block=32 x=[16777216] gamma=[1024] beta=[1024] y=[16777216] cols=1024
__global__ void row_layernorm(const float* x, const float* gamma, const float* beta, float* y, int cols) {
  int row = blockIdx.x;
  int lane = threadIdx.x;
  float sum = 0.0f;
  for (int c = lane; c < cols; c += 32) sum += x[row * cols + c];
  for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  float mean = sum / cols;
  float squares = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    float d = x[row * cols + c] - mean;
    squares += d * d;
  }
  for (int o = 16; o > 0; o /= 2) squares += __shfl_xor_sync(0xffffffffu, squares, o);
  float inv = rsqrtf(squares / cols + 1e-5f);
  for (int c = lane; c < cols; c += 32) y[row * cols + c] = (x[row * cols + c] - mean) * inv * gamma[c] + beta[c];
}

// y = A x, one thread per row.
// KERNEL: matvec grid=2 block=32 A=[600] x=[10] y=[60] rows=60 cols=10
// More columns than a block's shared memory holds (30000 doubles): x's adjoint is added where it
// belongs, not summed per block first.
// KERNEL: matvec grid=1 block=32 A=[60000] x=[30000] y=[2] rows=2 cols=30000
// BENCH: matvec grid=4096 block=256 A=[16777216] x=[16] y=[1048576] rows=1048576 cols=16
__global__ void matvec(const double* A, const double* x, double* y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    double sum = 0.0;
    for (int c = 0; c < cols; ++c) sum += A[r * cols + c] * x[c];
    y[r] = sum;
  }
}

// A thread per row walking its row backwards through row pointers, under a bounds test, with a
// per-column weight, in blocks of 48 threads (each block's second warp half full, the grid's last
// one partly past the rows): the reverse walks each warp's rows together, lane by lane.
// KERNEL: row_weighted_sines grid=2 block=48 x=[1710] w=[19] y=[1710] rows=90 cols=19
// KERNEL: row_weighted_sines grid=1 block=64 x=[4500] w=[75] y=[4500] rows=60 cols=75
// BENCH: row_weighted_sines grid=4096 block=256 x=[33554432] w=[32] y=[33554432] rows=1048576 cols=32
__global__ void row_weighted_sines(const float* x, const float* w, float* y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    for (int c = cols - 1; c >= 0; --c) yr[c] = xr[c] * w[c] + sinf(xr[c]);
  }
}

// The same with a scale every thread loads, whose adjoint each row sums over its columns (the
// walk sums it per row in shared memory, then over the grid).
// KERNEL: row_scaled_sines grid=2 block=48 x=[1710] w=[19] alpha=[1] y=[1710] rows=90 cols=19
// KERNEL: row_scaled_sines grid=1 block=64 x=[4500] w=[75] alpha=[1] y=[4500] rows=60 cols=75
__global__ void row_scaled_sines(const float* x, const float* w, const float* alpha, float* y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float a = alpha[0];
    for (int c = cols - 1; c >= 0; --c) yr[c] = a * xr[c] * w[c] + sinf(xr[c]);
  }
}

// A softmax written a thread per row, as in llm.c's first softmax kernel: a running maximum, the
// sum of exponentials, then the outputs; the reverse sums y_bar * y per row before its last pass.
// KERNEL: thread_softmax grid=2 block=48 x=[1800] y=[1800] rows=70 cols=25
// KERNEL: thread_softmax grid=1 block=32 x=[1600] y=[1600] rows=20 cols=80
// BENCH: thread_softmax grid=256 block=128 x=[33554432] y=[33554432] rows=32768 cols=1024
__global__ void thread_softmax(const float* x, float* y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * cols;
  float* yr = y + r * cols;
  float m = -INFINITY;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, xr[c]);
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) sum += expf(xr[c] - m);
  for (int c = 0; c < cols; ++c) yr[c] = expf(xr[c] - m) / sum;
}

// A loss over a matrix-vector product with a shared bias vector indexed by the loop counter.
// KERNEL: matvec_tanh_loss grid=2 block=32 A=[240] x=[4] bias=[4] loss=[1] rows=60
// BENCH: matvec_tanh_loss grid=16384 block=256 A=[16777216] x=[4] bias=[4] loss=[1] rows=4194304
__global__ void matvec_tanh_loss(const float* A, const float* x, const float* bias, float* loss, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float total = 0.0f;
    for (int c = 0; c < 4; ++c) total += tanhf(A[r * 4 + c] * x[c] + bias[c]);
    atomicAdd(loss, total * total);
  }
}

// One block per row, its threads striding over the row's columns (c += blockDim.x) through row
// pointers; w is a per-column parameter, so its adjoint sums over the block's rows.
// KERNEL: block_rows grid=3 block=64 x=[300] w=[100] y=[300] C=100
// KERNEL: block_rows grid=4 block=32 x=[80] w=[20] y=[80] C=20
__global__ void block_rows(const float* x, const float* w, float* y, int C) {
  const float* xr = x + blockIdx.x * C;
  float* yr = y + blockIdx.x * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) yr[c] = tanhf(xr[c] * w[c]) + xr[c];
}

// A device function of scalars called in a loop over a row, its result needed by the reverse
// (atanf's derivative reads it): the reverse sweep calls it again (device code has no tape; this
// was rejected as needing one).
__device__ float shifted_softsign(float u, float v) {
  u += 0.5f * v;
  return u / sqrtf(1.0f + u * u);
}

// KERNEL: rows_of_calls grid=2 block=32 x=[120] y=[120] C=3 rows=40
__global__ void rows_of_calls(const float* x, float* y, int C, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  for (int c = 0; c < C; ++c) y[r * C + c] = atanf(3.0f * shifted_softsign(x[r * C + c], 0.25f));
}

// RMS normalization, one warp per row, the row counted over the warps of the grid as tuned kernels
// count it ((blockIdx.x * blockDim.x + threadIdx.x) / 32): each lane's elements of x are its own
// where blocks are whole warps, which the vjp's launcher checks.
// KERNEL: grid_warp_rmsnorm grid=3 block=64 x=[400] w=[80] y=[400] rows=5 C=80
// BENCH: grid_warp_rmsnorm grid=2048 block=256 x=[16777216] w=[1024] y=[16777216] rows=16384 C=1024
__global__ void grid_warp_rmsnorm(const float* x, const float* w, float* y, int rows, int C) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* xr = x + static_cast<long>(row) * C;
  float squares = 0.0f;
  for (int c = lane; c < C; c += 32) squares += xr[c] * xr[c];
  for (int o = 16; o > 0; o /= 2) squares += __shfl_xor_sync(0xffffffffu, squares, o);
  float inv = rsqrtf(squares / C + 1e-5f);
  float* yr = y + static_cast<long>(row) * C;
  for (int c = lane; c < C; c += 32) yr[c] = xr[c] * inv * w[c];
}
