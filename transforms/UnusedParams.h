// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Marks the parameters `g` does not read ([[maybe_unused]] where it is defined), keeping
// -Wunused-parameter quiet.
void markUnusedParams(ir::Function& g);

}  // namespace adjoint::transforms
