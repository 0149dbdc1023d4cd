// W1 of ../../shared/BENCHMARKS.md: a pointwise loss with two parameters every thread reads,
// accumulated with atomicAdd. x, y: n floats; a, b: one float each; loss: one float.
//
// SAMPLE: grad w1_loss --wrt a,b
// SAMPLE: train-step w1 --params a,b --optimizer sgd
// KERNEL: w1_loss grid=8 block=256 x=[2000] y=[2000] a=[1:-0.5:0.5] b=[1:-0.5:0.5] loss=[1] n=2000 wrt=a,b
__global__ void w1_loss(const float* x, const float* y, const float* a, const float* b, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float h = tanhf(a[0] * x[i] + b[0]); float r = h - y[i]; atomicAdd(loss, r * r / n); }
}

// The training step's forward as host code writes it: the kernel over n elements. Its generated
// step (w1_loss.train.cu) computes the loss and the gradient in one pass and updates a and b.
// TRAIN: w1 params=a,b optimizer=sgd x=[2000] y=[2000] a=[1:-0.5:0.5] b=[1:-0.5:0.5] loss=[1] n=2000
void w1(const float* x, const float* y, const float* a, const float* b, float* loss, int n) {
  const int threads = 256;
  w1_loss<<<(n + threads - 1) / threads, threads>>>(x, y, a, b, loss, n);
}
