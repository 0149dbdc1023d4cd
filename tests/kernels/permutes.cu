// Tensors whose axes a kernel permutes, as attention code lays out its heads: the thread's index
// split into digits of a mixed radix (b, nh, n, d_) and the same digits put together in another
// order. Each thread adds to elements of inp_bar that no other thread adds to, so its atomicAdds
// sum in a fixed order: the kernels run under --deterministic, which refused them before.
#include "adjoint/annotations.h"

// q, k and v, each (B, NH, N, d), out of the attention input (B, N, 3, NH, d), as llm.c's
// permute_kernel writes it.
// KERNEL: permute grid=2 block=64 q=[96] k=[96] v=[96] inp=[288] B=2 N=3 NH=2 d=8 deterministic
// BENCH: permute grid=24576 block=256 q=[6291456] k=[6291456] v=[6291456] inp=[18874368] B=8 N=1024 NH=12 d=64
__global__ void permute(float* q, float* k, float* v, const float* inp, int B, int N, int NH, int d) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * NH * N * d) {
    int b = idx / (NH * N * d);
    int rest = idx % (NH * N * d);
    int nh_ = rest / (N * d);
    rest = rest % (N * d);
    int n = rest / d;
    int d_ = rest % d;
    int inp_idx = (b * N * 3 * NH * d) + (n * 3 * NH * d) + (0 * NH * d) + (nh_ * d) + d_;
    q[idx] = __ldcs(&inp[inp_idx]);
    k[idx] = __ldcs(&inp[inp_idx + NH * d]);
    v[idx] = __ldcs(&inp[inp_idx + 2 * (NH * d)]);
  }
}

// The heads put back side by side, (B, NH, N, d) to (B, N, NH, d), scaled on the way: the thread
// reads its own element and writes a permuted one.
// KERNEL: unpermute_scaled grid=2 block=64 inp=[96] out=[96] scale=[1] B=2 N=3 NH=2 d=8
__global__ void unpermute_scaled(const float* inp, float* out, const float* scale, int B, int N, int NH, int d) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * NH * N * d) {
    int b = idx / (NH * N * d);
    int rest = idx % (NH * N * d);
    int nh_ = rest / (N * d);
    rest = rest % (N * d);
    int n = rest / d;
    int d_ = rest % d;
    int other_idx = (b * NH * N * d) + (n * NH * d) + (nh_ * d) + d_;
    out[other_idx] = scale[0] * __ldcs(&inp[idx]);
  }
}

// A matrix transposed through its two digits, squared on the way: y (cols x rows) from x (rows x
// cols); the adjoint of x is added at the digits read back in the other order.
// KERNEL: transpose_square grid=2 block=64 x=[120] y=[120] rows=10 cols=12 deterministic
__global__ void transpose_square(const float* x, float* y, int rows, int cols) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= rows * cols) return;
  int c = t / rows;
  int r = t % rows;
  float e = x[r * cols + c];
  y[t] = e * e;
}

// A permute whose layout leaves out the q/k/v axis (N * NH * d where llm.c has N * 3 * NH * d):
// the element k of row n is the element q of row n + 1, so two threads add to it. Under
// --deterministic the adjoint of inp is a sort-and-segment sum (adjoint/segments.h).
// KERNEL: permute_collides grid=2 block=64 q=[96] k=[96] inp=[144] B=2 N=3 NH=2 d=8 deterministic
__global__ void permute_collides(float* q, float* k, const float* inp, int B, int N, int NH, int d) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * NH * N * d) {
    int b = idx / (NH * N * d);
    int rest = idx % (NH * N * d);
    int nh_ = rest / (N * d);
    rest = rest % (N * d);
    int n = rest / d;
    int d_ = rest % d;
    int inp_idx = b * N * NH * d + n * NH * d + nh_ * d + d_;
    q[idx] = inp[inp_idx];
    k[idx] = inp[inp_idx + NH * d];
  }
}
