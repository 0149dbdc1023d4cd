// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Computes a pure call (Module::isPureCall: math, intrinsics, functions with rules) that several
// neighbouring statements evaluate with the same arguments once, into a named constant (`const double exp_t =
// std::exp(t * x[i]);`), when nothing in between changes what the call reads. Adjoint code repeats such calls across
// the partial derivatives of one forward statement.
void shareCommonCalls(ir::Function& f, const ir::Module& m);

// The same for a product or quotient that reads an adjoint or a tangent (`const double d1_bar_over_vol =
// d1_bar / vol;`): the factor the partials of one forward statement share, computed once and named.
void shareCommonFactors(ir::Function& f, const ir::Module& m);

}  // namespace adjoint::transforms
