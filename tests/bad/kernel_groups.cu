// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: kernel_groups.cu:26:3: error: this cooperative group is not supported
// CHECK: note: use the block (cg::this_thread_block()) and its tiles of 32 threads (cg::tiled_partition<32>(block))
// CHECK: kernel_groups.cu:27:3: error: this cooperative group is not supported
// CHECK: kernel_groups.cu:30:13: error: this cg::reduce is not supported
// CHECK: note: reduce over a tile of 32 threads with cg::plus, or for floating values cg::greater or cg::less
// CHECK: kernel_groups.cu:31:11: error: 'any' of a cooperative group is not supported
// CHECK: kernel_groups.cu:32:25: error: a cooperative group passed to or returned by a function is not supported
// CHECK: note: make the group where it is used: cg::tiled_partition<32>(cg::this_thread_block())
// CHECK: kernel_groups.cu:23:24: error: a cooperative group passed to or returned by a function is not supported
// CHECK: kernel_groups.cu:23:74: error: this cooperative group is not supported
// CHECK-NOT: error:
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

template <class T>
struct product {
  __device__ T operator()(T a, T b) const { return a * b; }
};

__device__ float twice(cg::thread_block_tile<32> tile, float v) { return tile.shfl(v, 0) * 2.0f; }

__global__ void f(const float* x, float* y, int n) {
  cg::thread_block_tile<16> half = cg::tiled_partition<16>(cg::this_thread_block());  // not a warp
  cg::thread_block_tile<8> eighth = cg::tiled_partition<8>(half);                      // nor one of 8    
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float p = cg::reduce(warp, x[i], product<float>());  // an operation of the user's
  int a = warp.any(x[i] > 0.0f);
  y[i] += p + a + twice(warp, x[i]);
}
