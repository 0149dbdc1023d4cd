// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Decides how each adjoint the kernel `d` adds into memory is accumulated, and says so in a
// comment: a plain += where the index is injective over threads (and the adjoint array is used at
// that index alone); where every thread adds to the same address (a[0], a scalar parameter), a
// sum in a register, summed per block at the end of the kernel, the blocks' sums added in a fixed
// order by the last block to finish (launched without `block_sums`, an atomicAdd per block); where the
// address is the same across the warp at a time, one atomicAdd per warp; an atomicAdd
// otherwise, or a diagnostic when `deterministic`. Shared adjoint arrays are zeroed by the block
// first. In a device function every adjoint in memory is added with atomicAdd.
void parallelizeAdjoints(ir::Function& d, bool deterministic);
// The same for a kernel's forward mode, whose tangents are stored as the forward stores its
// values, except the atomicAdds the forward wrote: those into an address the same in every thread
// become a register sum added once per warp, as above; the others stay.
void parallelizeTangents(ir::Function& d);

}  // namespace adjoint::transforms
