// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Cleans up generated code: consecutive accumulations into the same place
// (`x_bar += a; x_bar += b;`) become one (`x_bar += a + b;`), in device code also additions to one
// array element with statements between that leave it alone, in host code a zeroing and the
// accumulation after it become one store (`x_bar = 0; x_bar += a;` is `x_bar = a;`), and `x += -e`
// becomes `x -= e`.
void simplify(ir::Function& f);

}  // namespace adjoint::transforms
