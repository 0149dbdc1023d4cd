// Reductions inside a block: shared memory with barriers, and warp shuffles.

// A tree reduction in shared memory, one atomicAdd per block.
// KERNEL: block_sum_squares grid=3 block=128 x=[300] out=[1] n=300
// BENCH: block_sum_squares grid=131072 block=128 x=[16777216] out=[1] n=16777216
__global__ void block_sum_squares(const float* x, float* out, int n) {
  __shared__ float partial[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? x[i] * x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, partial[0]);
}

// More blocks than one group of the per-block sums (1024): the adjoint of a and the tangent of
// out, summed per block, meet over three groups.
// KERNEL: block_scaled_cubes grid=2100 block=32 x=[67200] a=[1] out=[1] n=67150
// BENCH: block_scaled_cubes grid=524288 block=32 x=[16777216] a=[1] out=[1] n=16777216
__global__ void block_scaled_cubes(const float* x, const float* a, float* out, int n) {
  __shared__ float partial[32];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? a[0] * x[i] * x[i] * x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, partial[0]);
}

// A warp reduction with __shfl_down_sync; lane 0 of each warp adds the warp's sum.
// KERNEL: warp_sum_exp grid=2 block=64 x=[128] out=[1] n=128
// BENCH: warp_sum_exp grid=65536 block=256 x=[16777216] out=[1] n=16777216
__global__ void warp_sum_exp(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? expf(0.5f * x[i]) : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

// A butterfly reduction with __shfl_xor_sync: every lane gets its warp's sum, used per element.
// KERNEL: warp_normalize grid=2 block=64 x=[128] y=[128] n=128
// BENCH: warp_normalize grid=65536 block=256 x=[16777216] y=[16777216] n=16777216
__global__ void warp_normalize(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i] * x[i];
  float total = v;
  for (int mask = 16; mask >= 1; mask >>= 1) total += __shfl_xor_sync(0xffffffffu, total, mask);
  if (i < n) y[i] = x[i] / sqrtf(total + 1.0f);
}

// A broadcast from lane 0, and a two-step scan with __shfl_up_sync.
// KERNEL: warp_broadcast_scan grid=1 block=64 x=[64] y=[64] n=64
// BENCH: warp_broadcast_scan grid=65536 block=256 x=[16777216] y=[16777216] n=16777216
__global__ void warp_broadcast_scan(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  float first = __shfl_sync(0xffffffffu, x[i], 0);
  float v = x[i];
  float below = __shfl_up_sync(0xffffffffu, v, 1);
  if (lane >= 1) v += below;
  float two_below = __shfl_up_sync(0xffffffffu, v, 2);
  if (lane >= 2) v += two_below;
  if (i < n) y[i] = v * first;
}

// A rotation by one lane (a gather: each lane reads another) and a broadcast within each half of
// the warp (lane 3 of each 16: the reverse sums the half).
// KERNEL: warp_rotate_broadcast grid=2 block=64 x=[128] y=[128] n=120
// BENCH: warp_rotate_broadcast grid=65536 block=256 x=[16777216] y=[16777216] n=16777216
__global__ void warp_rotate_broadcast(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  float v = i < n ? x[i] : 0.0f;
  float next = __shfl_sync(0xffffffffu, v, (lane + 1) % 32);
  float head = __shfl_sync(0xffffffffu, v * v, 3, 16);
  if (i < n) y[i] = v * next + head;
}

// A block reduction through shared memory, read back by every thread (a softmax's denominator).
// KERNEL: block_softmax grid=2 block=64 x=[128] y=[128]
// BENCH: block_softmax grid=262144 block=64 x=[16777216] y=[16777216]
__global__ void block_softmax(const float* x, float* y) {
  __shared__ float sums[64];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float e = expf(x[i]);
  sums[t] = e;
  __syncthreads();
  for (int stride = 32; stride > 0; stride /= 2) {
    if (t < stride) sums[t] += sums[t + stride];
    __syncthreads();
  }
  y[i] = e / sums[0];
}
