// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Removes computations nothing reads: locals (and local arrays) that are assigned but never read,
// when computing them has no other effect, then loops and ifs left empty. The forward sweep of a
// gradient drops the `return`, so values only the result needed (and the reverse does not) go.
// `m` (optional) tells which pointer parameters its functions only read.
void removeDeadCode(ir::Function& f, const ir::Module* m = nullptr);

}  // namespace adjoint::transforms
