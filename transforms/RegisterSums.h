// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// CPU code: an adjoint element that a loop only adds to, at an index the loop does not change
// (`pos_bar[3 * i] += dx_bar` in a loop over j), is summed in a local over the loop and added to
// memory once after it, as a hand-written backward sums it: a register instead of a load and a
// store per iteration, which the compiler cannot do itself since other stores of the loop may
// alias the element. Exact up to the order of the additions: the loop's other accesses to the
// adjoint are additions too.
void sumInRegisters(ir::Function& f);

}  // namespace adjoint::transforms
