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
