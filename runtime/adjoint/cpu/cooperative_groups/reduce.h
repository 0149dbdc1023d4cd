// For a CPU-execution build of CUDA code: <cooperative_groups/reduce.h> (see
// ../cooperative_groups.h). cg::reduce leaves every lane of the tile with the reduction.
#pragma once

#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T>
struct plus {
  T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct greater {  // the larger: a reduction with it is the maximum
  T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct less {  // the smaller: a reduction with it is the minimum
  T operator()(T a, T b) const { return b < a ? b : a; }
};

template <unsigned Size, class Parent, class T, class Op>
T reduce(const thread_block_tile<Size, Parent>& tile, T value, Op op) {
  for (unsigned offset = Size / 2; offset > 0; offset /= 2) value = op(value, tile.shfl_xor(value, offset));
  return value;
}

}  // namespace cooperative_groups
