// Kernels over 16-bit floating storage, as training code writes them: buffers of __nv_bfloat16 or
// __half read widened to float (__bfloat162float, (float)x[i], float v = x[i]), computed in float,
// stored rounded (__float2bfloat16, (__half)v). Their adjoints are buffers of the same types.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// GELU (tanh approximation) in bfloat16.
// KERNEL: gelu_bf16 grid=3 block=128 out=[300] inp=[300] n=300
// BENCH: gelu_bf16 grid=65536 block=256 out=[16777216] inp=[16777216] n=16777216
__global__ void gelu_bf16(__nv_bfloat16* out, const __nv_bfloat16* inp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = __bfloat162float(inp[i]);
    float cube = 0.044715f * x * x * x;
    out[i] = __float2bfloat16(0.5f * x * (1.0f + tanhf(0.7978845608f * (x + cube))));
  }
}

// A residual in half, with casts.
// KERNEL: residual_half grid=2 block=128 out=[250] a=[250] b=[250] n=250
__global__ void residual_half(__half* out, const __half* a, const __half* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (__half)((float)a[i] + (float)b[i] * (float)b[i]);
}

// A bias in float added in place to rows of bfloat16 (the adjoint of bias: one column per thread).
// KERNEL: bias_inplace_bf16 grid=4 block=64 out=[256] bias=[8] n=256 C=8
__global__ void bias_inplace_bf16(__nv_bfloat16* out, const float* bias, int n, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = out[i];
    out[i] = v + bias[i % C];
  }
}

// A scale per column kept in bfloat16 too: its adjoint is summed per column, then added rounded.
// KERNEL: column_scale_bf16 grid=4 block=64 y=[256] x=[256] w=[16] n=256 C=16
// KERNEL: column_scale_bf16 grid=4 block=64 y=[256] x=[256] w=[16] n=256 C=16 deterministic
__global__ void column_scale_bf16(__nv_bfloat16* y, const float* x, const __nv_bfloat16* w, int n, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2bfloat16(x[i] * __bfloat162float(w[i % C]));
}

// RMS normalization, one thread per row through a row pointer, its weight in float.
// KERNEL: rmsnorm_bf16 grid=2 block=32 out=[384] inp=[384] weight=[6] rows=64 C=6
__global__ void rmsnorm_bf16(__nv_bfloat16* out, const __nv_bfloat16* inp, const float* weight, int rows, int C) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const __nv_bfloat16* x = inp + row * C;
  float squares = 0.0f;
  for (int c = 0; c < C; ++c) {
    float v = __bfloat162float(x[c]);
    squares += v * v;
  }
  float scale = rsqrtf(squares / C + 1e-5f);
  for (int c = 0; c < C; ++c) out[row * C + c] = __float2bfloat16(__bfloat162float(x[c]) * scale * weight[c]);
}

// A loss over half inputs summed into one float.
// KERNEL: squared_sum_half grid=3 block=64 loss=[1] x=[170] n=170
__global__ void squared_sum_half(float* loss, const __half* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = __half2float(x[i]);
    atomicAdd(loss, v * v);
  }
}
