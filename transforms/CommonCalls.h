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

// The same for an element of an adjoint array that neighbouring statements read (`const float y_bar_i =
// y_bar[i];`), loaded once: a store between them into another adjoint array, which the compiler must
// take for one that may alias, would have it loaded again after the store (on an H100, affine's vjp
// took 0.205 ms loading its seed again after the store into x_bar; 0.134 ms in a variant whose PTX is
// that of one load).
void shareSeedLoads(ir::Function& f, const ir::Module& m);

}  // namespace adjoint::transforms
