// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn permute --deterministic -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// A permute whose layout forgot the q/k/v axis (N * NH * d where llm.c has N * 3 * NH * d): the
// element k of row n is the element q of row n + 1, so two threads add to it.
// CHECK: permute_collides.cu:[[@LINE+12]]:{{[0-9]+}}: error: --deterministic: the adjoint of inp[inp_idx + NH * d] needs a floating-point atomicAdd
__global__ void permute(float* q, float* k, const float* inp, int B, int N, int NH, int d) {
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
