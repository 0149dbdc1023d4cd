// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// An accumulation into a local adjoint that is zero wherever it runs becomes a store: `x_bar += e`
// is `x_bar = e` after `x_bar = 0.0`, across statements, branches and the iterations of a loop (the
// adjoint of a loop-local is zeroed at the end of each reverse iteration, so each iteration starts
// from zero). The compiler cannot do this itself: 0.0 + e is not e where e is -0.0.
void storeIntoZeroedAdjoints(ir::Function& f);

}  // namespace adjoint::transforms
