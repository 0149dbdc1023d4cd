// ARGS: grad %s --fn k
// EXPECT: the value atomicAdd returns is not supported
// EXPECT: call atomicAdd as a statement of its own
__global__ void k(const float* x, float* total, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = atomicAdd(total, x[i]) * x[i];
}
