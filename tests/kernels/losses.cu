// Losses accumulated with atomicAdd, and parameters every thread reads (a[0], scalars).

// KERNEL: w1_loss grid=4 block=64 x=[250] y=[250] a=[1] b=[1] loss=[1] n=250
__global__ void w1_loss(const float* x, const float* y, const float* a, const float* b, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float h = tanhf(a[0] * x[i] + b[0]); float r = h - y[i]; atomicAdd(loss, r * r / n); }
}

// KERNEL: w1_loss_params grid=4 block=64 x=[250] y=[250] a=[1] b=[1] loss=[1] n=250 wrt=a,b
// BENCH: w1_loss_params grid=65536 block=256 x=[16777216] y=[16777216] a=[1] b=[1] loss=[1] n=16777216 wrt=a,b
__global__ void w1_loss_params(const float* x, const float* y, const float* a, const float* b, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float h = tanhf(a[0] * x[i] + b[0]); float r = h - y[i]; atomicAdd(loss, r * r / n); }
}

// KERNEL: w1_deterministic grid=5 block=96 x=[450] y=[450] a=[1] b=[1] loss=[1] n=450 wrt=a,b deterministic
__global__ void w1_deterministic(const float* x, const float* y, const float* a, const float* b, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float h = tanhf(a[0] * x[i] + b[0]); float r = h - y[i]; atomicAdd(loss, r * r / n); }
}

// A grid-stride loop summing in a register, one atomicAdd per thread, a scalar parameter.
// KERNEL: grid_stride_loss grid=2 block=64 x=[700] w=[2] loss=[1] scale=0.5 n=700
// BENCH: grid_stride_loss grid=1056 block=256 x=[16777216] w=[2] loss=[1] scale=0.5 n=16777216
__global__ void grid_stride_loss(const float* x, const float* w, float* loss, float scale, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float z = w[0] * x[i] + w[1];
    sum += z * z * scale;
  }
  atomicAdd(&loss[0], sum);
}

// Scattered: each thread adds into a bin chosen by an index array.
// KERNEL: histogram_weights grid=2 block=64 x=[100] bin=[100:0:10] s=[1] out=[10] n=100
// BENCH: histogram_weights grid=65536 block=256 x=[16777216] bin=[16777216:0:1024] s=[1] out=[1024] n=16777216
__global__ void histogram_weights(const float* x, const int* bin, const float* s, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&out[bin[i]], s[0] * x[i] * x[i]);
}

// Gathered: threads read elements chosen by an index array (their adjoints need atomics).
// KERNEL: gather_scale grid=2 block=64 x=[40] idx=[120:0:40] y=[120] n=120
// BENCH: gather_scale grid=65536 block=256 x=[16777216] idx=[16777216:0:16777216] y=[16777216] n=16777216
__global__ void gather_scale(const double* x, const int* idx, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0 * x[idx[i]] * x[idx[i]];
}

// Threads past the end return early, the others add into one address: the forward mode sums the
// tangents per block, with every thread taking part (those that had returned included).
// KERNEL: squared_error_early_return grid=4 block=64 h=[200] y=[200] loss=[1] n=200
__global__ void squared_error_early_return(const float* h, const float* y, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float r = h[i] - y[i];
  atomicAdd(loss, r * r / n);
}
