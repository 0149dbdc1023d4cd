// One pass of the pipeline (the table in ad/driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Computes a pure call (Module::isPureCall: math, intrinsics, functions with rules) that several
// neighbouring statements evaluate with the same arguments once, into a named constant (`const double exp_t =
// std::exp(t * x[i]);`), when nothing in between changes what the call reads. Adjoint code repeats such calls across
// the partial derivatives of one forward statement.
void shareCommonCalls(ir::Function& f, const ir::Module& m);

}  // namespace adjoint::transforms
