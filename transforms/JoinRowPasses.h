// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// In the reverse of device code, loops over the same range that each add into one adjoint array
// at `base + counter` (a row's passes: layernorm's reverse has three, each adding into inp_bar)
// make their adds in the last of those loops, one read-modify-write of each element instead of
// one per loop. An earlier loop's addend moves with the statements it is computed by (recomputed
// there from the same loads), the seed zeroing after those loads moves along, and a scalar it
// reads that changes in between is kept in a constant after the loop. The loops stay as they
// are otherwise: what they sum for the next (layernorm's m_bar, s_bar) must be complete before it.
//
// Only where moving is plainly safe: the adjoint array is only ever added to, the arrays the
// addend loads are written by nothing but that zeroing, no loop leaves early, and the range and
// the base stay as they were in between.
void joinRowPasses(ir::Function& d, const ir::Module& m);

}  // namespace adjoint::transforms
