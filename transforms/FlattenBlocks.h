// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Removes nested `{ ... }` blocks (names are unique after uniqueLocalNames).
void flattenBlocks(ir::Function& f);

}  // namespace adjoint::transforms
