// ARGS: grad %s --fn k
// EXPECT: 'atomicMax' cannot be differentiated
__global__ void k(const float* x, int* best, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMax(best, i);
    y[i] = x[i] * x[i];
  }
}
