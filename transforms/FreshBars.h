// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// In the reverse of a kernel, what a caller's adjoint::Bars::fresh (adjoint/cuda_host.h) allows:
// the adjoints of inputs hold zero, and the adjoints of the values the kernel overwrites (the zeros
// of the seeds) are not wanted.
//  - An input's adjoint to which each element gets one addition in the whole launch (the plain
//    += of ParallelAdjoints, at an index or lanes of one that no other statement adds to, in no
//    loop but those whose counter steps the index) is stored instead: x_bar[i] = e, no load.
//  - A seed's zeroing that nothing reads after (no later use of the array; in a loop, only that
//    element, at an index the loop's counter steps, and no barrier) is left out: the seed stays.
// The loop over the blocks a block runs in turn counts as none: it runs each block once.
// The kernel branches on `fresh_bars`, a template parameter (the printer writes such a kernel as
// `template <bool fresh_bars>`, its launcher runs the instantiation for its `adjoint::Bars bars`):
// each instantiation compiles to straight-line code, the one for add to the kernel as it was
// without the choice (a branch on a kernel argument measured up to 30% slower there).
// `primal`: the kernel differentiated.
void allowFreshBars(ir::Function& d, const ir::Function& primal);

}  // namespace adjoint::transforms
