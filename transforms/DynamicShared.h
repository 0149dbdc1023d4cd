// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// In a kernel's derivative, the arrays in dynamic shared memory (the forward's
// `extern __shared__ float tile[];`, and its adjoint or tangent) each get a slice as large as the
// forward's: `float* tile = adjoint::dynamic_shared<float>(0, 2);`, `tile_bar` part 1 of 2. The
// launcher launches with that many times the forward's bytes (Function::dynamicSharedParts).
void placeDynamicShared(ir::Function& d);

}  // namespace adjoint::transforms
