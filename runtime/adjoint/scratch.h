// What generated host functions (f_vjp, f_jvp of host code over kernels) use: scratch memory
// per stream, reused from call to call, stream-ordered copies, and the first error of a
// sequence of launches.
#pragma once

#include <algorithm>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#include "adjoint/cuda_host.h"

namespace adjoint {

// The first error of a sequence of CUDA calls: assigning a status keeps the first that failed.
class FirstError {
 public:
  FirstError& operator=(cudaError_t e) {
    if (first_ == cudaSuccess) first_ = e;
    return *this;
  }
  operator cudaError_t() const { return first_; }

 private:
  cudaError_t first_ = cudaSuccess;
};

// Copies `count` elements, in stream order.
template <class T>
cudaError_t copy(T* to, const T* from, long long count, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  return cudaMemcpyAsync(to, from, static_cast<size_t>(count) * sizeof(T), cudaMemcpyDeviceToDevice, stream);
}

// The scratch memory of one call of a generated host function on a stream. Memory comes from one
// block per device, stream and (on the default streams) host thread, kept from call to call:
// what a call takes beyond the block is allocated for that call, and the block grows to the
// call's whole need when the outermost call ends (stream-ordered: the kernels before still use
// the old memory). From the second call with the same sizes on, a call allocates nothing, so it
// can be captured into a CUDA graph.
class Scratch {
 public:
  explicit Scratch(cudaStream_t stream) : stream_(stream) {
    int device = 0;
    status_ = cudaGetDevice(&device);
    bool sharedByThreads = stream == nullptr || stream == cudaStreamPerThread;
    std::lock_guard<std::mutex> lock(mutex());
    arena_ = &arenas()[{device, stream, sharedByThreads ? std::this_thread::get_id() : std::thread::id()}];
    mark_ = arena_->used;
    ++arena_->users;
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    std::lock_guard<std::mutex> lock(mutex());
    arena_->used = mark_;
    if (--arena_->users > 0 || arena_->overflow.empty()) return;
    for (void* p : arena_->overflow) cudaFreeAsync(p, stream_);
    arena_->overflow.clear();
    if (arena_->base) cudaFreeAsync(arena_->base, stream_);
    arena_->base = nullptr;
    arena_->capacity = 0;
    if (cudaMallocAsync(&arena_->base, arena_->peak, stream_) == cudaSuccess) arena_->capacity = arena_->peak;
    arena_->overflowBytes = 0;
  }

  // Room for `count` values of T (uninitialized); null after a failure (see status()).
  template <class T>
  T* take(long long count) {
    size_t bytes = (static_cast<size_t>(std::max(count, 1LL)) * sizeof(T) + kAlign - 1) / kAlign * kAlign;
    if (status_ != cudaSuccess) return nullptr;
    std::lock_guard<std::mutex> lock(mutex());
    void* p = nullptr;
    if (arena_->used + bytes <= arena_->capacity) {
      p = static_cast<char*>(arena_->base) + arena_->used;
      arena_->used += bytes;
    } else if ((status_ = cudaMallocAsync(&p, bytes, stream_)) == cudaSuccess) {
      arena_->overflow.push_back(p);
      arena_->overflowBytes += bytes;
    }
    arena_->peak = std::max(arena_->peak, arena_->used + arena_->overflowBytes);
    return status_ == cudaSuccess ? static_cast<T*>(p) : nullptr;
  }

  explicit operator bool() const { return status_ == cudaSuccess; }
  cudaError_t status() const { return status_; }

 private:
  static constexpr size_t kAlign = 256;
  struct Arena {
    void* base = nullptr;
    size_t capacity = 0, used = 0, peak = 0, overflowBytes = 0;
    std::vector<void*> overflow;
    int users = 0;
  };
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  // Never destroyed: the memory lives as long as the process (a destructor at exit could run
  // after the CUDA runtime's own teardown).
  static std::map<std::tuple<int, cudaStream_t, std::thread::id>, Arena>& arenas() {
    static auto& a = *new std::map<std::tuple<int, cudaStream_t, std::thread::id>, Arena>;
    return a;
  }

  cudaStream_t stream_;
  Arena* arena_ = nullptr;
  size_t mark_ = 0;
  cudaError_t status_ = cudaSuccess;
};

}  // namespace adjoint
