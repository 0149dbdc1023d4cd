// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Moves each call to a function of the module out of a larger expression into a declaration of
// its own (`double g_result = g(x);`), so that differentiation meets calls only as whole
// statements: `v = g(...)`, `T v = g(...)`, or `g(...);`. A call under `?:`, `&&` or `||` moves
// into an if that keeps its guard: `c ? g(x) : 0` becomes
// `double selected = 0; if (c) { selected = g(x); } else { selected = 0; }`.
void extractCalls(ir::Function& f, const ir::Module& m);

}  // namespace adjoint::transforms
