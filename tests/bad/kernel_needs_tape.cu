// ARGS: grad %s --fn k
// EXPECT: would record values on a tape
// EXPECT: device code cannot grow
__global__ void k(const float* x, float* y, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    for (int s = 0; s < steps; ++s) v = sinf(v);
    y[i] = v;
  }
}
