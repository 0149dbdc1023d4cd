// Elementwise kernels: one thread per element, guarded, some with a grid-stride loop.

// KERNEL: affine grid=4 block=64 x=[250] y=[250] a=0.7 b=-0.3 n=250
// BENCH: affine grid=65536 block=256 x=[16777216] y=[16777216] a=0.7 b=-0.3 n=16777216
__global__ void affine(const float* x, float* y, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}

// KERNEL: gelu grid=3 block=128 x=[300] y=[300] n=300
// BENCH: gelu grid=65536 block=256 x=[16777216] y=[16777216] n=16777216
__global__ void gelu(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float inner = 0.7978845608f * (v + 0.044715f * v * v * v);
  y[i] = 0.5f * v * (1.0f + tanhf(inner));
}

// KERNEL: softplus_fast grid=2 block=128 x=[200] y=[200] n=200
// BENCH: softplus_fast grid=65536 block=256 x=[16777216] y=[16777216] n=16777216
__global__ void softplus_fast(const float* x, float* y, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) y[i] = __logf(1.0f + __expf(x[i]));
}

// KERNEL: rsqrt_normalize grid=2 block=64 x=[100] y=[100] n=100
// BENCH: rsqrt_normalize grid=65536 block=256 x=[16777216] y=[16777216] n=16777216
__global__ void rsqrt_normalize(const float* x, float* y, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) y[i] = x[i] * rsqrtf(x[i] * x[i] + 0.5f);
}

// KERNEL: axpy_grid_stride grid=2 block=32 x=[300] y=[300] alpha=1.3 n=300
// BENCH: axpy_grid_stride grid=1056 block=256 x=[16777216] y=[16777216] alpha=1.3 n=16777216
__global__ void axpy_grid_stride(const float* x, float* y, float alpha, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = alpha * x[i] + x[i] * x[i];
}

// KERNEL: sigmoid_double grid=2 block=64 x=[128] y=[128] n=128
// BENCH: sigmoid_double grid=65536 block=256 x=[16777216] y=[16777216] n=16777216
__global__ void sigmoid_double(const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 1.0 / (1.0 + exp(-x[i]));
}

__device__ float smooth_abs(float v, float eps) { return sqrtf(v * v + eps); }

__device__ float weighted(float v, float w) { return w * smooth_abs(v, 0.01f) + fmaxf(v, 0.0f) * 0.0f; }

// KERNEL: device_helpers grid=2 block=64 x=[120] w=[120] y=[120] n=120
// BENCH: device_helpers grid=65536 block=256 x=[16777216] w=[16777216] y=[16777216] n=16777216
__global__ void device_helpers(const float* x, const float* w, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = weighted(x[i], w[i]);
}

enum class Act : int { Relu, Gelu, Silu };

// An activation chosen by an enumeration, per element by its column: a switch in a kernel.
// KERNEL: activation_switch grid=3 block=64 x=[180] y=[180] n=180 act=2
__global__ void activation_switch(const float* x, float* y, int n, Act act) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  switch (i % 3 == 0 ? Act::Relu : act) {
    case Act::Relu:
      y[i] = fmaxf(v, 0.0f);
      break;
    case Act::Gelu:
      y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
      break;
    default:
      y[i] = v / (1.0f + expf(-v));
  }
}

// The gamma function and its logarithm in float: their derivatives call the digamma function, a
// double helper copied into the generated code as a __host__ __device__ function. (Arguments in
// [0.5, 2.5], away from the poles, where float finite differences are meaningful.)
// KERNEL: log_gamma grid=2 block=64 x=[100] y=[100] n=100
// BENCH: log_gamma grid=65536 block=256 x=[16777216] y=[16777216] n=16777216
__global__ void log_gamma(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = lgammaf(x[i] * x[i] + 0.5f) + 0.1f * tgammaf(x[i] + 1.5f);
}

// A device function called in a grid-stride loop, as a SiLU with a learned slope writes it, and
// one under ?: whose result the reverse needs: computed, and recomputed by the reverse of the
// iteration, only where the condition holds (nothing taped).
__device__ float logistic(float v) { return 1.0f / (1.0f + expf(-v)); }
// KERNEL: swish_grid_stride grid=2 block=32 x=[300] beta=[1] y=[300] n=300
__global__ void swish_grid_stride(const float* x, const float* beta, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float s = x[i] * logistic(beta[0] * x[i]);
    y[i] = x[i] > 1.0f ? 10.0f * smooth_abs(x[i] - 1.0f, 0.01f) * s : s;  // smooth at 1
  }
}
