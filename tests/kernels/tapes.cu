// Values a kernel's loop overwrites that its reverse needs: kept in global scratch, a slot per run
// of the store (the thread and the loop's iteration, the threads of an iteration side by side),
// which the launcher sizes from the grid and the loop's bounds; the reverse reads each back in
// the same iteration (transforms/TapeScratch.h).

// An online softmax, one thread per row (as llm.c's softmax_forward_online_kernel1): the sum is
// rescaled by the change of the running maximum, so the reverse needs both of every iteration.
// KERNEL: online_softmax grid=1 block=64 out=[120] inp=[120] N=10 C=12
// BENCH: online_softmax grid=64 block=256 out=[16777216] inp=[16777216] N=16384 C=1024
__global__ void online_softmax(float* out, const float* inp, int N, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const float* x = inp + i * C;
  float maxval = -INFINITY;
  float sum = 0.0f;
  for (int j = 0; j < C; j++) {
    float maxval_prev = maxval;
    maxval = fmaxf(maxval, x[j]);
    sum = sum * expf(maxval_prev - maxval) + expf(x[j] - maxval);
  }
  float* y = out + i * C;
  for (int j = 0; j < C; j++) y[j] = expf(x[j] - maxval) / sum;
}

// A value iterated in place a number of times the caller gives: each step's input, kept per run.
// KERNEL: iterate_sine grid=2 block=32 x=[50] y=[50] n=50 steps=3
__global__ void iterate_sine(const float* x, float* y, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    for (int s = 0; s < steps; ++s) v = sinf(v) + 0.5f * v;
    y[i] = v;
  }
}

// Nested counted loops over a row, the inner one's bound a literal: a product accumulated in place.
// KERNEL: row_products grid=1 block=32 x=[24] w=[4] y=[6] rows=6 C=4
__global__ void row_products(const double* x, const double* w, double* y, int rows, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  double p = 1.0;
  for (int c = 0; c < C; ++c)
    for (int k = 0; k < 2; ++k) p = p * (1.0 + 0.25 * w[c] * x[r * C + c]) - 0.1 * k * p * p;
  y[r] = p;
}

// A block per row, each thread walking its columns by the block's size and folding them into a
// value kept in place: its slots per thread are counted from C and blockDim.x.
// KERNEL: block_row_fold grid=3 block=4 x=[30] y=[12] C=10
// KERNEL: block_row_fold grid=2 block=16 x=[20] y=[32] C=10
__global__ void block_row_fold(const float* x, float* y, int C) {
  const float* row = x + blockIdx.x * C;
  float v = 1.0f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) v = v * (0.5f + row[c]) - 0.1f * v * v;
  y[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// A value iterated a literal number of times in each run of a grid-stride loop: the slots per
// thread are counted from n and the grid's size, times the inner loop's three.
// KERNEL: iterate_grid_stride grid=2 block=8 x=[50] y=[50] n=50
__global__ void iterate_grid_stride(const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float v = x[i];
    for (int s = 0; s < 3; ++s) v = sinf(v) + 0.5f * v;
    y[i] = v;
  }
}

// The same with a second value that reads a copy of the first from before each step: the first is
// taped at two places (in the inner loop, and before each run of the grid-stride loop), each
// place's values in slots of their own.
// KERNEL: iterate_with_copy grid=1 block=5 x=[61] p=[1] y=[61] n=61
__global__ void iterate_with_copy(const float* x, const float* p, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float v = x[i];
    float u = 0.0f;
    for (int s = 0; s < 2; ++s) {
      float previous = v;
      v = tanhf(v) * p[0] + 0.3f * v;
      u = u * cosf(previous - v) + 0.5f * v;
    }
    y[i] = v + u;
  }
}
