// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Renames locals so that every declaration in the function has its own name (a second `i`
// becomes `i_2`), so that later stages may move declarations between scopes.
void uniqueLocalNames(ir::Function& f);

}  // namespace adjoint::transforms
