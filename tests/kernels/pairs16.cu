// Pairs of 16-bit values as training kernels use them: a bfloat16 or half buffer viewed two
// elements at a time (reinterpret_cast<const __nv_bfloat162*>(x)[i]), widened to float
// (__bfloat1622float2, __low2float, __high2float, __bfloat162float(v.x)), computed in float and
// stored rounded (__floats2bfloat162_rn, __float22half2_rn), through row pointers too, and pairs
// moved whole (__halves2bfloat162 of two fields, a rounded pair kept in a local and stored).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// GELU (tanh form) of a bfloat16 buffer, two elements per thread.
// KERNEL: gelu_bf162 grid=2 block=64 out=[200] inp=[200] n2=100
// BENCH: gelu_bf162 grid=32768 block=256 out=[16777216] inp=[16777216] n2=8388608
__global__ void gelu_bf162(__nv_bfloat16* out, const __nv_bfloat16* inp, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2) return;
  float2 v = __bfloat1622float2(reinterpret_cast<const __nv_bfloat162*>(inp)[i]);
  float gx = 0.5f * v.x * (1.0f + tanhf(0.7978845608f * (v.x + 0.044715f * v.x * v.x * v.x)));
  float gy = 0.5f * v.y * (1.0f + tanhf(0.7978845608f * (v.y + 0.044715f * v.y * v.y * v.y)));
  reinterpret_cast<__nv_bfloat162*>(out)[i] = __floats2bfloat162_rn(gx, gy);
}

// A scaled residual in half pairs, in a grid-stride loop: the halves read by __low2float and
// __high2float, the result made from a float2.
// KERNEL: residual_half2 grid=2 block=32 out=[180] a=[180] b=[180] scale=[2] n2=90
__global__ void residual_half2(__half* out, const __half* a, const __half* b, const float* scale, int n2) {
  const __half2* a2 = reinterpret_cast<const __half2*>(a);
  const __half2* b2 = reinterpret_cast<const __half2*>(b);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += blockDim.x * gridDim.x) {
    __half2 p = a2[i], q = b2[i];
    float2 r = make_float2(__low2float(p) + scale[0] * __low2float(q) * __low2float(q),
                           __high2float(p) + scale[1] * sinf(__high2float(q)));
    reinterpret_cast<__half2*>(out)[i] = __float22half2_rn(r);
  }
}

// RMS normalization, a warp per row, each lane reading pairs of the row through a row pointer;
// the weight in float, the rounded pair kept in a local and stored whole (C even).
// KERNEL: rmsnorm_bf162 grid=2 block=64 out=[384] inp=[384] weight=[24] rows=4 C=24
// KERNEL: rmsnorm_bf162 grid=1 block=64 out=[136] inp=[136] weight=[68] rows=2 C=68
__global__ void rmsnorm_bf162(__nv_bfloat16* out, const __nv_bfloat16* inp, const float* weight, int rows, int C) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  const __nv_bfloat162* x2 = reinterpret_cast<const __nv_bfloat162*>(inp + row * C);
  float squares = 0.0f;
  for (int c = lane; c < C / 2; c += 32) {
    float2 v = __bfloat1622float2(x2[c]);
    squares += v.x * v.x + v.y * v.y;
  }
  for (int o = 16; o > 0; o /= 2) squares += __shfl_xor_sync(0xffffffffu, squares, o);
  float s = rsqrtf(squares / C + 1e-5f);
  __nv_bfloat162* y2 = reinterpret_cast<__nv_bfloat162*>(out + row * C);
  for (int c = lane; c < C / 2; c += 32) {
    __nv_bfloat162 r = __floats2bfloat162_rn(__low2float(x2[c]) * s * weight[2 * c],
                                             __high2float(x2[c]) * s * weight[2 * c + 1]);
    y2[c] = r;
  }
}

// The halves of each pair swapped and scaled: fields read as v.x and v.y, a pair of two fields
// moved whole (__halves2bfloat162), a bfloat16 scale per pair.
// KERNEL: swap_scale_bf162 grid=2 block=32 out=[128] inp=[128] scale=[64] n2=64
__global__ void swap_scale_bf162(__nv_bfloat16* out, const __nv_bfloat16* inp, const __nv_bfloat16* scale, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2) return;
  __nv_bfloat162 v = reinterpret_cast<const __nv_bfloat162*>(inp)[i];
  __nv_bfloat162* out2 = reinterpret_cast<__nv_bfloat162*>(out);
  out2[i] = __halves2bfloat162(v.y, v.x);
  float k = __bfloat162float(scale[i]);
  out[2 * i] = __float2bfloat16(__bfloat162float(out[2 * i]) * k + __bfloat162float(v.x) * k * k);
}
