// Rows of a table picked by an index array, as embeddings are: the adjoint scatters into the
// table at indices read from data, which threads share. Under --deterministic each run of such an
// addition records its (index, value) pair in a slot of its own, and the launcher sorts the pairs
// by index and adds each index's values in slot order (adjoint/segments.h): bitwise the same
// gradient on every run.
#include <cstring>

// llm.c compares its int counters with a pack's size_t size (k < packed.size).
#pragma GCC diagnostic ignored "-Wsign-compare"

template <class ElementType>
struct alignas(16) Packed128 {
  Packed128() = default;
  __device__ explicit Packed128(int4 bits) {
    static_assert(sizeof(bits) == sizeof(payload), "Size mismatch.");
    memcpy(&payload, &bits, sizeof(bits));
  }
  __device__ ElementType& operator[](int index) { return payload[index]; }
  __device__ const ElementType& operator[](int index) const { return payload[index]; }
  __device__ int4 get_bits() const {
    int4 bits;
    static_assert(sizeof(bits) == sizeof(payload), "Size mismatch.");
    memcpy(&bits, &payload, sizeof(bits));
    return bits;
  }
  static constexpr const size_t size = sizeof(int4) / sizeof(ElementType);
  ElementType payload[size];
};
template <class ElementType>
__device__ Packed128<ElementType> load128cs(const ElementType* address) {
  return Packed128<ElementType>{__ldcs(reinterpret_cast<const int4*>(address))};
}
template <class ElementType>
__device__ void store128(ElementType* target, Packed128<ElementType> value) {
  *reinterpret_cast<int4*>(target) = value.get_bits();
}
typedef Packed128<float> x128;

// Token and position embeddings added with four channels per thread in packs (llm.c's
// encoder_forward_kernel3; samples/embedding has its kernel2): each thread's additions run in a
// counted loop over the pack, a slot per lane.
// KERNEL: encoder_forward_x128 grid=1 block=64 out=[192] inp=[8:0:5] wte=[120] wpe=[96] B=2 T=4 C=24 deterministic
// BENCH: encoder_forward_x128 grid=6144 block=256 out=[6291456] inp=[8192:0:50257] wte=[38597376] wpe=[786432] B=8 T=1024 C=768 deterministic
__global__ void encoder_forward_x128(float* out, const int* inp, const float* wte, const float* wpe, int B, int T,
                                     int C) {
  int idx = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
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
    x128 packed_out;
    x128 wte128 = load128cs(wte_ix);
    x128 wpe128 = load128cs(wpe_tc);
    for (int k = 0; k < x128::size; k++) {
      packed_out[k] = wte128[k] + wpe128[k];
    }
    store128(out_btc, packed_out);
  }
}

// An embedding bag: each output row the weighted sum of K rows of the table, over a counted loop
// whose bound is a parameter (K slots per thread). The weights' adjoints are shared by a row's
// channels, and summed the same way.
// KERNEL: embedding_bag grid=2 block=64 table=[42] ids=[15:0:7] weights=[15] out=[30] n=5 K=3 C=6 deterministic
__global__ void embedding_bag(const float* table, const int* ids, const float* weights, float* out, int n, int K,
                              int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * C) return;
  int row = i / C, c = i % C;
  float s = 0.0f;
  for (int j = 0; j < K; ++j) s += weights[row * K + j] * table[ids[row * K + j] * C + c];
  out[i] = s;
}

// Gathered twice from one element, in double: two additions a run, each a slot of its own.
// KERNEL: gather_square grid=2 block=64 x=[40] idx=[120:0:40] y=[120] n=120 deterministic
__global__ void gather_square(const double* x, const int* idx, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0 * x[idx[i]] * x[idx[i]] + x[idx[(i + 1) % n]];
}

// A scale every thread reads beside the gather: its adjoint is summed per block, the blocks run in
// turn on fewer blocks (each slot stays the forward thread's), the table's sorted into segments.
// KERNEL: scaled_gather grid=3 block=64 w=[9] idx=[150:0:9] a=[1] y=[150] n=150 deterministic
__global__ void scaled_gather(const float* w, const int* idx, const float* a, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a[0] * w[idx[i]];
}

// A block per token, its threads walking the channels by the block's size (fewer threads than
// channels: several runs a thread). The runs a thread may make are counted from C and the block's
// size, which the launcher knows; the positions' adjoints are shared by the tokens at one position
// and sorted the same way.
// KERNEL: embedding_rows grid=6 block=4 out=[60] inp=[6:0:5] wte=[50] wpe=[30] BT=6 T=3 C=10 deterministic
// KERNEL: embedding_rows grid=6 block=32 out=[60] inp=[6:0:5] wte=[50] wpe=[30] BT=6 T=3 C=10 deterministic
// BENCH: embedding_rows grid=8192 block=256 out=[6291456] inp=[8192:0:50257] wte=[38597376] wpe=[786432] BT=8192 T=1024 C=768 deterministic
__global__ void embedding_rows(float* out, const int* inp, const float* wte, const float* wpe, int BT, int T, int C) {
  int bt = blockIdx.x;
  if (bt >= BT) return;
  const float* token = wte + inp[bt] * C;
  const float* position = wpe + (bt % T) * C;
  float* o = out + bt * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) o[c] = token[c] + position[c];
}

// A gather in a grid-stride loop, fewer threads than elements: a thread's runs are counted from n
// and the grid's size (run k of thread g takes slot g + k * threads, the element's own index).
// KERNEL: gather_grid_stride grid=2 block=8 x=[12] idx=[70:0:12] y=[70] n=70 deterministic
// BENCH: gather_grid_stride grid=1024 block=256 x=[1048576] idx=[16777216:0:1048576] y=[16777216] n=16777216 deterministic
__global__ void gather_grid_stride(const float* x, const int* idx, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = 3.0f * sinf(x[idx[i]]);
}

// A thread per element of the output, its row idx / C picking the table's row: the table's
// adjoint kept at the thread's own element, the row's key once per row, the rows sorted by key
// (row segments), not the elements.
// KERNEL: embedding_flat grid=2 block=64 x=[35] ids=[9:0:5] y=[63] M=9 C=7 deterministic
// BENCH: embedding_flat grid=24576 block=256 x=[38597376] ids=[8192:0:50257] y=[6291456] M=8192 C=768 deterministic
__global__ void embedding_flat(const float* x, const int* ids, float* y, int M, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= M * C) return;
  int m = idx / C;
  int c = idx % C;
  y[idx] = 2.0f * x[ids[m] * C + c];
}

// Rows in a grid-stride loop, each thread walking its row: a thread's runs cover several rows,
// each run's element its own (row segments again).
// KERNEL: embedding_strided_rows grid=2 block=4 table=[24] ids=[11:0:4] out=[66] rows=11 C=6 deterministic
__global__ void embedding_strided_rows(const double* table, const int* ids, double* out, int rows, int C) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x)
    for (int c = 0; c < C; ++c) out[r * C + c] = std::sin(table[ids[r] * C + c]);
}

// The table's row picked per element, not per row of the output: rows of the output do not share
// a key, so the additions stay one (index, value) pair per element, sorted by index.
// KERNEL: gather_per_element grid=2 block=64 x=[40] ids=[72:0:5] y=[72] M=9 C=8 deterministic
__global__ void gather_per_element(const double* x, const int* ids, double* y, int M, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= M * C) return;
  y[idx] = x[ids[idx] * C + idx % C] * x[ids[idx] * C + idx % C];
}
