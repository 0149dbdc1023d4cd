// Token and position embeddings of a transformer's input, as llm.c's encoder_forward_kernel2
// writes them: one thread per channel of each (b, t), through pointers into the rows. The
// gradient of the token table wte scatters at the tokens read from inp, which threads share:
// --deterministic sums it by sorting the additions by index (adjoint/segments.h) instead of with
// atomicAdd, so every run gives bitwise the same gradient.
//
// SAMPLE: grad encoder_forward --deterministic
// KERNEL: encoder_forward grid=4 block=64 out=[240] inp=[10:0:7] wte=[168] wpe=[120] B=2 T=5 C=24 deterministic
// KERNEL: encoder_forward grid=4 block=64 out=[240] inp=[10:0:7] wte=[168] wpe=[120] B=2 T=5 C=24
// BENCH: encoder_forward grid=24576 block=256 out=[6291456] inp=[8192:0:50257] wte=[38597376] wpe=[786432] B=8 T=1024 C=768 deterministic
// BENCH: encoder_forward grid=24576 block=256 out=[6291456] inp=[8192:0:50257] wte=[38597376] wpe=[786432] B=8 T=1024 C=768
__global__ void encoder_forward(float* out, const int* inp, const float* wte, const float* wpe, int B, int T, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int N = B * T * C;
  if (idx < N) {
    int bt = idx / C;
    int b = bt / T;
    int t = bt % T;
    int c = idx % C;
    int ix = inp[b * T + t];
    float* out_btc = out + b * T * C + t * C + c;
    const float* wte_ix = wte + ix * C + c;
    const float* wpe_tc = wpe + t * C + c;
    *out_btc = *wte_ix + *wpe_tc;
  }
}
