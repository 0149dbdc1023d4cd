// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Kernels' forward modes do not redo the forward's effects on its outputs: stores (and atomicAdds)
// into pointer parameters the kernel `primal` writes but never reads are removed from `d`, since
// redoing an atomicAdd would add the loss twice. (Reverse modes leave every store into the
// caller's buffers out of their forward sweep, or undo it: derive/ReverseMode.cpp.)
void dropOutputStores(ir::Function& d, const ir::Function& primal);

}  // namespace adjoint::transforms
