// Dynamic shared memory: `extern __shared__ T name[];` sized by the launch. A derivative keeps the
// adjoint (or tangent) in a second slice as large as the forward's, and its launcher launches
// with twice the bytes.

// A tree reduction in shared memory sized by the block: the sum of squares of each block, added
// into out.
// KERNEL: block_sum_squares_dynamic grid=3 block=64 shmem=64*float x=[170] out=[1] n=170
__global__ void block_sum_squares_dynamic(const float* x, float* out, int n) {
  extern __shared__ float partial[];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[t] = i < n ? x[i] * x[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, partial[0]);
}

// Per-warp statistics of a block kept in two arrays carved out of one extern __shared__ array
// (as layernorm kernels keep means and reciprocal deviations), read back by every thread.
// KERNEL: warp_centered grid=2 block=64 shmem=4*double x=[128] y=[128] n=128
__global__ void warp_centered(const double* x, double* y, int n) {
  extern __shared__ double stats[];
  double* means = stats;
  double* scales = stats + blockDim.x / 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = i < n ? x[i] : 0.0;
  double sum = v, squares = v * v;
  for (int o = 16; o > 0; o /= 2) {
    sum += __shfl_xor_sync(0xffffffffu, sum, o);
    squares += __shfl_xor_sync(0xffffffffu, squares, o);
  }
  if (threadIdx.x % 32 == 0) {
    means[threadIdx.x / 32] = sum / 32.0;
    scales[threadIdx.x / 32] = 1.0 / sqrt(squares / 32.0 + 1e-3);
  }
  __syncthreads();
  int other = (threadIdx.x / 32 + 1) % (blockDim.x / 32);
  if (i < n) y[i] = (v - means[threadIdx.x / 32]) * scales[other];
}

// A transpose through a two-dimensional shared tile of 8 x 8 (rows padded to 9 against bank
// conflicts), squared: the tile is one array of 72 elements, row after row.
// KERNEL: tile_transpose grid=4 block=64 x=[256] y=[256] n=16
__global__ void tile_transpose(const float* x, float* y, int n) {
  __shared__ float tile[8][9];
  int tx = threadIdx.x % 8, ty = threadIdx.x / 8;
  int bx = blockIdx.x % 2, by = blockIdx.x / 2;
  tile[ty][tx] = x[(by * 8 + ty) * n + bx * 8 + tx];
  __syncthreads();
  y[(bx * 8 + ty) * n + by * 8 + tx] = tile[tx][ty] * tile[tx][ty];
}
