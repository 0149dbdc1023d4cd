// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// In the reverse of kernels and device functions, a store that zeroes an output's seed
// (`y_bar[i] = 0`, after the statements that read it) moves to the end of its block when nothing
// after it there touches y_bar, changes its index or leaves the block, and no barrier intervenes.
// On the H200 a store between loads held back the loads after it: gelu's vjp took 0.47 ms with
// the store in the middle and 0.09 ms with it last.
void sinkSeedZeroing(ir::Function& d);

}  // namespace adjoint::transforms
