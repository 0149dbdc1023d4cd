// ARGS: grad %s --fn k --deterministic
// EXPECT: --deterministic: the adjoint of x[idx[i]] needs a floating-point atomicAdd
__global__ void k(const float* x, const int* idx, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[idx[i]] * 3.0f;
}
