// Kernel templates, instantiated for a type and for a block size (`--fn block_sum<128>`): each
// instantiation is differentiated under its own name (block_sum_128_vjp); a template's value
// parameter is the instantiation's constant (shared arrays sized by it, loops bounded by it).

template <typename T>
__global__ void scaled_square(const T* x, T* y, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] * x[i] + static_cast<T>(0.5) * x[i];
}
// (Instantiated by launches, not explicitly: the float64 reference makes float double, and the two
// would be one.)
void scaled_squares(const float* xf, float* yf, const double* xd, double* yd, int n) {
  scaled_square<float><<<(n + 63) / 64, 64>>>(xf, yf, 0.8f, n);
  scaled_square<double><<<(n + 63) / 64, 64>>>(xd, yd, -1.3, n);
}
// KERNEL: scaled_square<float> grid=3 block=64 x=[150] y=[150] a=0.8 n=150
// KERNEL: scaled_square<double> grid=2 block=64 x=[100] y=[100] a=-1.3 n=100

// A block's sum of squares through shared memory of BLOCK elements, halving to one.
template <int BLOCK>
__global__ void block_sum(const float* x, float* out, int n) {
  __shared__ float tile[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? x[i] * x[i] : 0.0f;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) tile[t] += tile[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, tile[0]);
}
template __global__ void block_sum<64>(const float*, float*, int);
// KERNEL: block_sum<64> grid=3 block=64 x=[170] out=[1] n=170

// A template over its block size that indexes with it, as tuned kernels write it: its vjp adds
// x_bar[i] plainly (the index is the thread's own in blocks of at most BLOCK threads, which the
// launcher checks).
template <int BLOCK>
__global__ void scaled_cube(const float* x, const float* w, float* y, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] = w[0] * x[i] * x[i] * x[i];
}
template __global__ void scaled_cube<128>(const float*, const float*, float*, int);
// KERNEL: scaled_cube<128> grid=3 block=128 x=[300] w=[1] y=[300] n=300
