// Host code over kernels: a host function that launches kernels on the buffers it is passed is
// differentiated at the tensor level (f_vjp, f_jvp), checked as a function of all its buffers.

__global__ void scale_shift(const float* x, const float* w, const float* b, float* h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] = tanhf(w[0] * x[i] + b[0]);
}

__global__ void squared_error(const float* h, const float* y, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float r = h[i] - y[i];
  atomicAdd(loss, r * r / n);
}

// Two launches on a stream, the intermediate passed in by the caller.
// HOST: model x=[200] y=[200] w=[1] b=[1] h=[200] loss=[1] n=200
void model(const float* x, const float* y, const float* w, const float* b, float* h, float* loss, int n,
           cudaStream_t stream) {
  int threads = 64;
  dim3 grid((n + threads - 1) / threads);
  scale_shift<<<grid, threads, 0, stream>>>(x, w, b, h, n);
  squared_error<<<grid, dim3(threads), 0, stream>>>(h, y, loss, n);
}

// An in-place update (bias, then tanh, of rows of C) and a grid-stride loop.
__global__ void bias_tanh(float* h, const float* bias, int rows, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * C) h[i] = tanhf(h[i] + bias[i % C]);
}

__global__ void scale_all(const float* in, float* out, const float* s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = in[i] * s[0];
}

// The buffer h is updated in place twice and then read: the pullbacks need each of its values,
// so the forward keeps each in a copy of its own.
// HOST: layers x=[96] bias=[8] s=[1] h=[96] out=[96] rows=12 C=8
void layers(const float* x, const float* bias, const float* s, float* h, float* out, int rows, int C) {
  int n = rows * C;
  scale_all<<<2, 32>>>(x, h, s, n);
  bias_tanh<<<(n + 31) / 32, 32>>>(h, bias, rows, C);
  bias_tanh<<<(n + 31) / 32, 32>>>(h, bias, rows, C);
  scale_all<<<2, 32>>>(h, out, s, n);
}

// Offsets into buffers: each half of x scaled into its half of y.
// HOST: halves x=[64] s=[1] y=[64] half=32
void halves(const float* x, const float* s, float* y, int half) {
  scale_all<<<1, 32>>>(x, y, s, half);
  scale_all<<<1, 32>>>(x + half, y + half, s, half);
}

// The function zeroes its loss itself and copies its input aside before using the copy:
// cudaMemsetAsync and cudaMemcpyAsync are steps like launches.
// HOST: zeroed_loss x=[100] w=[1] b=[1] keep=[100] h=[100] loss=[1] n=100
// TRAIN: zeroed_loss params=w,b optimizer=sgd x=[100] w=[1] b=[1] keep=[100] h=[100] loss=[1] n=100
void zeroed_loss(const float* x, const float* w, const float* b, float* keep, float* h, float* loss, int n,
                 cudaStream_t stream) {
  cudaMemsetAsync(loss, 0, sizeof(float), stream);
  cudaMemcpyAsync(keep, x, n * sizeof(float), cudaMemcpyDeviceToDevice, stream);
  scale_shift<<<(n + 63) / 64, 64, 0, stream>>>(keep, w, b, h, n);
  squared_error<<<(n + 63) / 64, 64, 0, stream>>>(h, x, loss, n);
}

// A read guarded by a select: threads past the end read nothing, so the copy of h covers its n
// elements, not the grid's 128 threads (it read past the caller's buffer).
__global__ void guarded_square(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  if (i < n) y[i] = v * v;
}

// HOST: guarded x=[70] h=[70] y=[70] n=70
void guarded(const float* x, float* h, float* y, int n) {
  guarded_square<<<(n + 63) / 64, 64>>>(x, h, n);
  guarded_square<<<(n + 63) / 64, 64>>>(h, y, n);
}

__global__ void add_bias(float* h, const float* bias, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] += bias[i % 4];
}

__global__ void square(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i];
}

// Pieces the host code chooses: a bias added in place where one is given, a squaring layer or a
// copy, and a stage only for later layers, in a loop; both sides of each if are checked.
// HOST: optional x=[64] bias=[4] w=[1] b=[1] h=[64] y=[320] loss=[1] n=64 layers=5 squared=1
// HOST: optional x=[64] bias=[4] w=[1] b=[1] h=[64] y=[320] loss=[1] n=64 layers=1 squared=0
// HOST: optional x=[64] bias=null w=[1] b=[1] h=[64] y=[320] loss=[1] n=64 layers=2 squared=1
// TRAIN: optional params=w,b,bias optimizer=sgd x=[64] bias=[4] w=[1] b=[1] h=[64] y=[320] loss=[1] n=64 layers=3 squared=1
// TRAIN: optional params=w,b optimizer=momentum x=[64] bias=[4] w=[1] b=[1] h=[64] y=[320] loss=[1] n=64 layers=2 squared=0
void optional(const float* x, const float* bias, const float* w, const float* b, float* h, float* y, float* loss, int n,
              int layers, int squared) {
  scale_shift<<<(n + 63) / 64, 64>>>(x, w, b, h, n);
  if (bias != nullptr) add_bias<<<(n + 63) / 64, 64>>>(h, bias, n);
  if (squared) {
    square<<<(n + 63) / 64, 64>>>(h, y, n);
  } else {
    cudaMemcpy(y, h, n * sizeof(float), cudaMemcpyDeviceToDevice);
  }
  for (int l = 1; l < layers; ++l) {
    if (l > 2) bias_tanh<<<(n + 63) / 64, 64>>>(y + (l - 1) * n, bias, n / 4, 4);
    scale_shift<<<(n + 63) / 64, 64>>>(y + (l - 1) * n, w, b, y + l * n, n);
  }
  squared_error<<<(n + 63) / 64, 64>>>(y + (layers - 1) * n, x, loss, n);
}

__global__ void product(const float* a, const float* b, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a[i] * b[i];
}

// One buffer passed for two or three parameters of a launch: h scaled in place through two names,
// x times its neighbour (x, x + 1: thread i adds into x_bar[i + 1] through b, thread i + 1 through
// a), and y squared in place through three names; and the same in a loop over layers. The
// adjoints through the parameters that only read are kept apart and added after each launch.
// HOST: shared_buffers x=[65] s=[1] h=[64] y=[64] z=[192] n=64 layers=3
void shared_buffers(const float* x, const float* s, float* h, float* y, float* z, int n, int layers) {
  scale_all<<<2, 32>>>(x, h, s, n);
  scale_all<<<2, 32>>>(h, h, s, n);
  product<<<(n + 31) / 32, 32>>>(x, x + 1, y, n);
  product<<<(n + 31) / 32, 32>>>(y, y, y, n);
  product<<<(n + 31) / 32, 32>>>(h, y, z, n);
  for (int l = 1; l < layers; ++l) product<<<(n + 31) / 32, 32>>>(z + (l - 1) * n, z + (l - 1) * n, z + l * n, n);
}

__global__ void dot_loss(const float* a, const float* b, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(loss, a[i] * b[i]);
}

// The loss kernel given one buffer twice: in a training step it runs with its pullback as one
// kernel, the adjoint through b kept apart there too.
// HOST: self_dot x=[64] s=[1] h=[64] loss=[1] n=64
// TRAIN: self_dot params=s optimizer=sgd x=[64] s=[1] h=[64] loss=[1] n=64
void self_dot(const float* x, const float* s, float* h, float* loss, int n) {
  scale_all<<<2, 32>>>(x, h, s, n);
  dot_loss<<<2, 32>>>(h, h, loss, n);
}

// A training step's pullbacks take adjoint::Bars::fresh where the step keeps its promise: h is
// read by two launches (the later one's pullback, run first, stores h_bar; the earlier one's adds
// to it), and g is written twice (the second write's pullback zeroes its seed, which the first
// write's readers then add into).
// HOST: fan_out x=[64] w=[1] b=[1] h=[64] g=[64] k=[64] loss=[1] n=64
// TRAIN: fan_out params=w,b optimizer=sgd x=[64] w=[1] b=[1] h=[64] g=[64] k=[64] loss=[1] n=64
void fan_out(const float* x, const float* w, const float* b, float* h, float* g, float* k, float* loss, int n) {
  scale_shift<<<(n + 63) / 64, 64>>>(x, w, b, h, n);
  square<<<(n + 63) / 64, 64>>>(h, g, n);
  product<<<(n + 63) / 64, 64>>>(g, h, k, n);
  square<<<(n + 63) / 64, 64>>>(k, g, n);
  squared_error<<<(n + 63) / 64, 64>>>(g, x, loss, n);
}

__global__ void clamp_top(float* h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] = fminf(h[i], 0.5f);
}

__global__ void square_in_place(float* h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] = h[i] * h[i];
}

// In-place activations in a training step. The clamp's and the tanh's derivatives come from the
// values they leave (fmin's [r < 0.5], tanh's 1 - r^2): their pullbacks (K_vjp_from_output) read
// h and g as the kernels leave them, and nothing of h or g is copied out for them. The square's
// derivative needs the g it overwrites, which is also what the tanh's pullback reads: that one
// value of g is copied out before the square, the step's only copy (tests/cli_test.py).
// HOST: activations x=[96] w=[1] b=[1] bias=[8] h=[96] g=[96] loss=[1] rows=12 C=8
// TRAIN: activations params=w,b,bias optimizer=sgd x=[96] w=[1] b=[1] bias=[8] h=[96] g=[96] loss=[1] rows=12 C=8
// TRAIN: activations deterministic params=w,b,bias optimizer=adamw x=[96] w=[1] b=[1] bias=[8] h=[96] g=[96] loss=[1] rows=12 C=8
void activations(const float* x, const float* w, const float* b, const float* bias, float* h, float* g, float* loss,
                 int rows, int C) {
  int n = rows * C;
  scale_shift<<<(n + 31) / 32, 32>>>(x, w, b, h, n);
  clamp_top<<<(n + 31) / 32, 32>>>(h, n);
  scale_shift<<<(n + 31) / 32, 32>>>(h, w, b, g, n);
  bias_tanh<<<(n + 31) / 32, 32>>>(g, bias, rows, C);
  square_in_place<<<(n + 31) / 32, 32>>>(g, n);
  squared_error<<<(n + 31) / 32, 32>>>(g, x, loss, n);
}
