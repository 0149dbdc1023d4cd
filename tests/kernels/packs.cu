// Packs: 128-bit vectors as llm.c's kernels define and use them (Packed128<T>, its operator[],
// load128 / load128cs / store128 / store128cs through int4, the size as a member), here of floats.
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

// Loads and stores of 128 bits, cached or streaming.
template <class ElementType>
__device__ Packed128<ElementType> load128(const ElementType* address) {
  return Packed128<ElementType>{*reinterpret_cast<const int4*>(address)};
}
template <class ElementType>
__device__ Packed128<ElementType> load128cs(const ElementType* address) {
  return Packed128<ElementType>{__ldcs(reinterpret_cast<const int4*>(address))};
}
template <class ElementType>
__device__ void store128(ElementType* target, Packed128<ElementType> value) {
  *reinterpret_cast<int4*>(target) = value.get_bits();
}
template <class ElementType>
__device__ void store128cs(ElementType* target, Packed128<ElementType> value) {
  __stcs(reinterpret_cast<int4*>(target), value.get_bits());
}

typedef Packed128<float> f128;

// A product with a residual, four elements per thread, the output pack filled by element.
// KERNEL: residual_forward grid=2 block=32 out=[224] inp1=[224] inp2=[224] N=224
// BENCH: residual_forward grid=16384 block=256 out=[16777216] inp1=[16777216] inp2=[16777216] N=16777216
__global__ void residual_forward(float* out, const float* inp1, const float* inp2, int N) {
  int idx = (blockIdx.x * blockDim.x + threadIdx.x) * f128::size;
  if (idx >= N) return;
  f128 packed_out;
  f128 packed_inp1 = load128cs(inp1 + idx);
  f128 packed_inp2 = load128cs(inp2 + idx);
  for (int k = 0; k < packed_inp1.size; k++) {
    packed_out[k] = packed_inp1[k] + packed_inp2[k] * packed_inp1[k];
  }
  store128(out + idx, packed_out);
}

// GELU, four per thread, stored streaming.
// KERNEL: gelu_f128 grid=2 block=32 out=[200] inp=[200] N=200
// BENCH: gelu_f128 grid=16384 block=256 out=[16777216] inp=[16777216] N=16777216
__global__ void gelu_f128(float* out, const float* inp, int N) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * f128::size;
  if (i < N) {
    f128 packed_out;
    f128 packed_inp = load128cs(inp + i);
    for (int k = 0; k < f128::size; ++k) {
      float x = packed_inp[k];
      float cube = 0.044715f * x * x * x;
      packed_out[k] = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + cube)));
    }
    store128cs(out + i, packed_out);
  }
}

// A bias applied in place to rows (C a multiple of 4): a pack loaded from the buffer the kernel
// writes (kept as an array, not viewed), the result stored where it was loaded.
// KERNEL: bias_inplace_f128 grid=2 block=16 out=[128] bias=[8] N=128 C=8
__global__ void bias_inplace_f128(float* out, const float* bias, int N, int C) {
  int idx = (blockIdx.x * blockDim.x + threadIdx.x) * f128::size;
  if (idx < N) {
    f128 packed = load128(out + idx), result;
    int col = idx % C;
    for (int k = 0; k < f128::size; ++k) result[k] = packed[k] * bias[col + k] + bias[col + k];
    store128(out + idx, result);
  }
}

// The root mean square of each row, a warp per row reading four elements at a time through a row
// pointer (C a multiple of 4), the pack declared in the loop.
// KERNEL: row_rms_f128 grid=1 block=64 out=[2] inp=[512] N=2 C=256
// KERNEL: row_rms_f128 grid=2 block=32 out=[2] inp=[72] N=2 C=36
__global__ void row_rms_f128(float* out, const float* inp, int N, int C) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (row >= N) return;
  const float* x = inp + row * C;
  float sum = 0.0f;
  for (int c = lane * f128::size; c < C; c += 32 * f128::size) {
    f128 in = load128cs(x + c);
    for (int k = 0; k < f128::size; ++k) sum += in[k] * in[k];
  }
  for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  if (lane == 0) out[row] = sqrtf(sum / C);
}

// A pack copied whole into another (b = a), one of its lanes scaled by another lane.
// KERNEL: scale_lane_f128 grid=2 block=16 x=[120] y=[120] n=120
__global__ void scale_lane_f128(const float* x, float* y, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i >= n) return;
  f128 a = load128(x + i), b;
  b = a;
  b[1] = b[1] * a[2] + sinf(b[3]);
  store128(y + i, b);
}
