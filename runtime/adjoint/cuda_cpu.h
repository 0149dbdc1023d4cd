// CPU execution of CUDA kernels, for machines without a GPU (tests, CI). A kernel source compiled
// by a host compiler with this header runs its launches on the CPU with CUDA's semantics where
// the generated code relies on them:
//  - blocks run one after the other; the threads of a block run as cooperative fibers, so every
//    thread can wait at __syncthreads() until all threads of its block arrive;
//  - warp shuffles exchange values between the 32 lanes of a warp, which wait for each other;
//  - __shared__ variables are one object per block (function-local statics: blocks never overlap);
//  - atomics are plain read-modify-writes (one OS thread runs everything).
// A barrier or shuffle that not every thread reaches stops the program with a message, where a
// GPU would hang or compute garbage.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "adjoint/fiber.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static
#define __launch_bounds__(...)

struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
// CUDA's vector types and their make_ functions (float4, make_float4, ...), aligned as CUDA aligns
// them, so that kernels viewing buffers as vectors (reinterpret_cast<const float4*>(x)) run.
#define ADJOINT_CPU_VECTOR_TYPES(T)                                               \
  struct alignas(2 * sizeof(T)) T##2 { T x, y; };                                 \
  struct T##3 { T x, y, z; };                                                     \
  struct alignas(4 * sizeof(T) < 16 ? 4 * sizeof(T) : 16) T##4 { T x, y, z, w; }; \
  inline T##2 make_##T##2(T x, T y) { return {x, y}; }                            \
  inline T##3 make_##T##3(T x, T y, T z) { return {x, y, z}; }                    \
  inline T##4 make_##T##4(T x, T y, T z, T w) { return {x, y, z, w}; }
ADJOINT_CPU_VECTOR_TYPES(float)
ADJOINT_CPU_VECTOR_TYPES(double)
ADJOINT_CPU_VECTOR_TYPES(int)
#undef ADJOINT_CPU_VECTOR_TYPES

using cudaStream_t = struct CUstream_st*;
inline const cudaStream_t cudaStreamPerThread = reinterpret_cast<cudaStream_t>(0x2);
enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorUnknown = 999
};
enum cudaMemcpyKind {
  cudaMemcpyHostToHost,
  cudaMemcpyHostToDevice,
  cudaMemcpyDeviceToHost,
  cudaMemcpyDeviceToDevice,
  cudaMemcpyDefault
};

inline uint3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;
constexpr int warpSize = 32;

// Events read the host's clock.
using cudaEvent_t = std::chrono::steady_clock::time_point*;
inline cudaError_t cudaEventCreate(cudaEvent_t* e) {
  *e = new std::chrono::steady_clock::time_point();
  return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete e;
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = nullptr) {
  *e = std::chrono::steady_clock::now();
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t stop) {
  *ms = std::chrono::duration<float, std::milli>(*stop - *start).count();
  return cudaSuccess;
}

inline const char* cudaGetErrorString(cudaError_t e) { return e == cudaSuccess ? "no error" : "CPU execution error"; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaGetDevice(int* device) {
  *device = 0;
  return cudaSuccess;
}
// Device memory starts as garbage: here all bits set (NaN as floating point), so that code reading
// memory it never wrote fails its checks instead of finding zeros a fresh allocation happens to hold.
inline cudaError_t cudaMalloc(void** p, size_t bytes) {
  *p = std::malloc(bytes ? bytes : 1);
  if (!*p) return cudaErrorMemoryAllocation;
  std::memset(*p, 0xFF, bytes);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMalloc(T** p, size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(p), bytes);
}
template <class T>
cudaError_t cudaMallocAsync(T** p, size_t bytes, cudaStream_t) {
  return cudaMalloc(reinterpret_cast<void**>(p), bytes);
}
inline cudaError_t cudaFree(void* p) {
  std::free(p);
  return cudaSuccess;
}
inline cudaError_t cudaFreeAsync(void* p, cudaStream_t) { return cudaFree(p); }
inline cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind) {
  std::memcpy(dst, src, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind k, cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, k);
}
inline cudaError_t cudaMemset(void* p, int value, size_t bytes) {
  std::memset(p, value, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void* p, int value, size_t bytes, cudaStream_t) {
  return cudaMemset(p, value, bytes);
}
// `height` rows of `width` bytes, `pitch` bytes apart.
inline cudaError_t cudaMemset2DAsync(void* p, size_t pitch, int value, size_t width, size_t height, cudaStream_t) {
  for (size_t row = 0; row < height; ++row) std::memset(static_cast<char*>(p) + row * pitch, value, width);
  return cudaSuccess;
}

// CUDA's fast-math intrinsics, computed exactly.
inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __saturatef(float x) { return x < 0 ? 0.0f : x > 1 ? 1.0f : x; }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }

namespace adjoint::cpu {

// One block's threads as fibers, and the scheduler that runs them.
class BlockRun {
 public:
  enum class State { Ready, AtBarrier, AtWarpSync, Done };

  BlockRun(dim3 block, std::function<void()> body)
      : block_(block),
        body_(std::move(body)),
        fibers_(size_t{block.x} * block.y * block.z),
        stacks_(stacks(fibers_.size())),
        exchange_(fibers_.size()) {}

  static BlockRun*& current() {
    static BlockRun* run = nullptr;
    return run;
  }

  void run() {
    current() = this;
    for (size_t t = 0; t < fibers_.size(); ++t) start(t);
    while (step()) {
    }
    current() = nullptr;
  }

  // Waits until every thread of the block that has not finished waits here too.
  void barrier() { wait(State::AtBarrier); }
  // Waits until every running lane of the calling thread's warp waits here too.
  void warpSync() { wait(State::AtWarpSync); }

  size_t self() const { return running_; }
  size_t threads() const { return fibers_.size(); }
  uint64_t& slot(size_t thread) { return exchange_[thread]; }
  bool finished(size_t thread) const { return fibers_[thread].state == State::Done; }

 private:
  static constexpr size_t kStackBytes = 128 * 1024;
  struct Fiber {
    FiberContext context;
    State state = State::Ready;
  };
  dim3 block_;
  std::function<void()> body_;
  std::vector<Fiber> fibers_;
  char* stacks_;
  std::vector<uint64_t> exchange_;
  FiberContext scheduler_;
  size_t running_ = 0;

  // The fibers' stacks, kept from launch to launch (one launch runs at a time): a fresh allocation
  // per launch would be mapped again and fault in page by page each time.
  static char* stacks(size_t fibers) {
    static std::unique_ptr<char[]> storage;
    static size_t capacity = 0;
    if (fibers > capacity) {
      storage.reset(new char[fibers * kStackBytes]);
      capacity = fibers;
    }
    return storage.get();
  }

  static void entry() {
    BlockRun* run = current();
    run->body_();
    Fiber& f = run->fibers_[run->running_];
    f.state = State::Done;
    switchFiber(f.context, run->scheduler_);
  }

  void start(size_t t) {
    fibers_[t].state = State::Ready;
    prepare(fibers_[t].context, stacks_ + t * kStackBytes, kStackBytes, &BlockRun::entry);
  }

  void resume(size_t t) {
    running_ = t;
    unsigned bx = block_.x, by = block_.y;
    threadIdx =
        uint3{static_cast<unsigned>(t % bx), static_cast<unsigned>(t / bx % by), static_cast<unsigned>(t / (bx * by))};
    switchFiber(scheduler_, fibers_[t].context);
  }

  void wait(State s) {
    fibers_[running_].state = s;
    switchFiber(fibers_[running_].context, scheduler_);
  }

  // Runs every ready thread until it waits or finishes, then releases the barriers all
  // their threads reached. False once every thread has finished.
  bool step() {
    for (size_t t = 0; t < fibers_.size(); ++t)
      if (fibers_[t].state == State::Ready) resume(t);
    size_t done = 0, atBarrier = 0;
    for (const Fiber& f : fibers_) {
      done += f.state == State::Done;
      atBarrier += f.state == State::AtBarrier;
    }
    if (done == fibers_.size()) return false;
    bool released = false;
    if (done + atBarrier == fibers_.size()) {
      for (Fiber& f : fibers_)
        if (f.state == State::AtBarrier) f.state = State::Ready;
      released = true;
    }
    for (size_t w = 0; w < fibers_.size(); w += 32) {
      size_t end = std::min(fibers_.size(), w + 32), waiting = 0, running = 0;
      for (size_t t = w; t < end; ++t) {
        running += fibers_[t].state != State::Done;
        waiting += fibers_[t].state == State::AtWarpSync;
      }
      if (waiting > 0 && waiting == running) {
        for (size_t t = w; t < end; ++t)
          if (fibers_[t].state == State::AtWarpSync) fibers_[t].state = State::Ready;
        released = true;
      }
    }
    if (!released) {
      std::fprintf(
          stderr,
          "adjoint CPU execution: block (%u, %u, %u) deadlocks: some threads wait at __syncthreads() or a warp "
          "shuffle that others of their block or warp never reach\n",
          blockIdx.x, blockIdx.y, blockIdx.z);
      std::abort();
    }
    return true;
  }
};

inline BlockRun& self() {
  BlockRun* run = BlockRun::current();
  if (!run) {
    std::fprintf(stderr, "adjoint CPU execution: a device function ran outside a kernel launch\n");
    std::abort();
  }
  return *run;
}

// Lane `source` of the calling thread's warp; the caller's own value when that lane is missing.
template <class T>
T exchange(T value, unsigned source) {
  static_assert(sizeof(T) <= sizeof(uint64_t), "shuffled values are at most 8 bytes");
  BlockRun& run = self();
  size_t me = run.self(), from = me - me % 32 + source;
  std::memcpy(&run.slot(me), &value, sizeof(T));
  run.warpSync();
  T out = value;
  if (from < run.threads() && !run.finished(from)) std::memcpy(&out, &run.slot(from), sizeof(T));
  run.warpSync();  // nobody overwrites a slot before every lane has read it
  return out;
}

inline unsigned lane() { return static_cast<unsigned>(self().self() % 32); }

// A bit per lane of the calling thread's warp, set where that lane's predicate holds; a lane
// missing or finished has no bit.
inline unsigned ballot(bool predicate) {
  BlockRun& run = self();
  size_t me = run.self(), base = me - me % 32;
  run.slot(me) = predicate;
  run.warpSync();
  unsigned bits = 0;
  for (size_t t = base; t < base + 32 && t < run.threads(); ++t)
    if (!run.finished(t) && run.slot(t)) bits |= 1u << (t - base);
  run.warpSync();  // nobody overwrites a slot before every lane has read it
  return bits;
}

}  // namespace adjoint::cpu

inline void __syncthreads() { adjoint::cpu::self().barrier(); }
inline void __syncwarp(unsigned = 0xffffffffu) { adjoint::cpu::self().warpSync(); }
// The lanes of the warp that have not finished: the CPU execution does not model divergence
// within a warp.
inline unsigned __activemask() {
  adjoint::cpu::BlockRun& run = adjoint::cpu::self();
  size_t base = run.self() - run.self() % 32;
  unsigned mask = 0;
  for (size_t t = base; t < base + 32 && t < run.threads(); ++t)
    if (!run.finished(t)) mask |= 1u << (t - base);
  return mask;
}

inline unsigned __ballot_sync(unsigned mask, int predicate) { return adjoint::cpu::ballot(predicate != 0) & mask; }
inline int __all_sync(unsigned mask, int predicate) {
  return (~adjoint::cpu::ballot(predicate != 0) & mask & __activemask()) == 0;
}
inline int __any_sync(unsigned mask, int predicate) { return __ballot_sync(mask, predicate) != 0; }

template <class T>
T __shfl_sync(unsigned, T value, int source, int width = 32) {
  unsigned l = adjoint::cpu::lane();
  return adjoint::cpu::exchange(value, l - l % width + static_cast<unsigned>(source) % width);
}
template <class T>
T __shfl_xor_sync(unsigned, T value, int laneMask, int width = 32) {
  unsigned l = adjoint::cpu::lane(), source = l ^ static_cast<unsigned>(laneMask);
  return adjoint::cpu::exchange(value, source / width == l / width ? source : l);
}
template <class T>
T __shfl_down_sync(unsigned, T value, unsigned delta, int width = 32) {
  unsigned l = adjoint::cpu::lane();
  return adjoint::cpu::exchange(value, l % width + delta < static_cast<unsigned>(width) ? l + delta : l);
}
template <class T>
T __shfl_up_sync(unsigned, T value, unsigned delta, int width = 32) {
  unsigned l = adjoint::cpu::lane();
  return adjoint::cpu::exchange(value, l % width >= delta ? l - delta : l);
}

template <class T>
T atomicAdd(T* address, T value) {
  T old = *address;
  *address = old + value;
  return old;
}
// ((old >= limit) ? 0 : old + 1), as CUDA's atomicInc
inline unsigned atomicInc(unsigned* address, unsigned limit) {
  unsigned old = *address;
  *address = old >= limit ? 0 : old + 1;
  return old;
}
// A kernel stopped: the GPU reports an error of the launch; here the program stops.
[[noreturn]] inline void __trap() {
  std::fprintf(stderr, "adjoint CPU execution: a kernel called __trap()\n");
  std::abort();
}
// One thread runs at a time: what it stored is what the next reads.
inline void __threadfence() {}
// The loads with a cache hint: plain loads here.
template <class T>
T __ldg(const T* p) {
  return *p;
}
template <class T>
T __ldca(const T* p) {
  return *p;
}
template <class T>
T __ldcg(const T* p) {
  return *p;
}
template <class T>
T __ldcs(const T* p) {
  return *p;
}
template <class T>
T __ldlu(const T* p) {
  return *p;
}
template <class T>
T __ldcv(const T* p) {
  return *p;
}
// The stores with a cache hint: plain stores here.
template <class T>
void __stcs(T* p, T value) {
  *p = value;
}
template <class T>
void __stcg(T* p, T value) {
  *p = value;
}
template <class T>
void __stwb(T* p, T value) {
  *p = value;
}
template <class T>
void __stwt(T* p, T value) {
  *p = value;
}
template <class T>
T atomicMax(T* address, T value) {
  T old = *address;
  *address = old < value ? value : old;
  return old;
}

namespace adjoint {

namespace cpu {
// The running launch's dynamic shared memory (one block at a time).
inline std::vector<unsigned char> dynamicShared;
}  // namespace cpu

inline unsigned dynamic_shared_bytes() { return static_cast<unsigned>(cpu::dynamicShared.size()); }
template <class T>
T* dynamic_shared(unsigned part, unsigned parts) {
  return reinterpret_cast<T*>(cpu::dynamicShared.data() + part * (dynamic_shared_bytes() / parts));
}
template <class... Params>
cudaError_t allow_shared(void (*)(Params...), size_t) {
  return cudaSuccess;
}
// The most dynamic shared memory a block may have: an H200's 227 KiB.
constexpr size_t max_dynamic_shared = 227 * 1024;
template <class... Params>
cudaError_t shared_if_fits(void (*)(Params...), size_t& bytes) {
  if (bytes > max_dynamic_shared) bytes = 0;
  return cudaSuccess;
}

// Runs kernel<<<grid, block, shmem>>>(args...) on the CPU, blocks in order. Each block's dynamic
// shared memory starts as all-ones bytes (NaN as floats), as shared memory holds no defined
// values when a block starts.
template <class... Params, class... Args>
cudaError_t launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shmem, cudaStream_t, Args... args) {
  if (shmem > max_dynamic_shared || block.x * block.y * block.z == 0 || block.x * block.y * block.z > 1024)
    return cudaErrorInvalidConfiguration;
  gridDim = grid;
  blockDim = block;
  cpu::dynamicShared.assign(shmem, 0xff);
  cpu::BlockRun threads(block, [&] { kernel(args...); });
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x) {
        blockIdx = uint3{x, y, z};
        std::fill(cpu::dynamicShared.begin(), cpu::dynamicShared.end(), 0xff);
        threads.run();
      }
  return cudaSuccess;
}

}  // namespace adjoint
