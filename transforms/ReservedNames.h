// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Renames the parameters and locals whose names the generated code gives its own variables:
// names ending in _bar, _dot, _tape, _bar_acc or _bar_new (the adjoint of x is x_bar, so a user's
// own x_bar would clash with it), k_L<line> (a replayed loop's counter), and block_sums,
// virtual_block, virtual_blocks. `x_bar` becomes `x_bar_`.
void renameReservedNames(ir::Function& f);

}  // namespace adjoint::transforms
