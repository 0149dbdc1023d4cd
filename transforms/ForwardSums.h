// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// In the reverse of device code, a loop that only sums into scalars, each term a factor the loop
// does not change times what the forward's loop over the same range computes (layernorm's
// variance pass: `m_bar -= sum_bar * (2 * diff)` for each element), is a pass over the row that the
// forward sweep already makes: its loop sums the terms' varying parts (`diff_sum += 2 * diff`),
// and the reverse adds factor times that sum once (`m_bar -= sum_bar * diff_sum`), without a
// loop. Σ f·g_i = f·Σ g_i: the same sum, rounded in another order.
//
// Only where it is plainly the same: the loop's body declares, assigns scalars and adds into
// scalars (no stores, calls with effects, shuffles or jumps), what the sum reads is computed by the
// forward's loop the same way, the scalars and arrays it reads do not change from the forward's
// loop to the reverse's, and neither loop is inside another loop the other is not.
void sumInForwardSweep(ir::Function& d, const ir::Module& m);

}  // namespace adjoint::transforms
