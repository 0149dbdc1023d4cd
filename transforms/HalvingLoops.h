// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// In kernels and device functions, a halving loop `for (int c = a; c > 0; c /= 2)` (or c >>= 1,
// or c >= 1) becomes the counted loop
// `for (int c_halving = 0; c_halving < adjoint::halvings(a); ++c_halving) { int c = a >> c_halving; ... }`,
// so that its reverse runs as a counted loop that recomputes c instead of taping it (device code
// has no tapes). These are the loops of tree and warp-shuffle reductions.
void countHalvingLoops(ir::Function& f);

}  // namespace adjoint::transforms
