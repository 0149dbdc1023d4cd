// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Makes a kernel with per-block sums (after parallelizeAdjoints), without shared memory or the
// block's barriers (a warp's are fine), run the blocks of its one-dimensional launch in turn: its
// body, between the sums' declarations and their finish, goes into `for (virtual_block =
// blockIdx.x; virtual_block < virtual_blocks; virtual_block += gridDim.x)`, with blockIdx.x and
// gridDim.x read as virtual_block and virtual_blocks (a new parameter: the forward's grid). Fewer,
// longer-lived blocks leave fewer sums to add. Returns false, changing nothing, for kernels that
// do not qualify.
bool runBlocksInTurn(ir::Function& d);

}  // namespace adjoint::transforms
