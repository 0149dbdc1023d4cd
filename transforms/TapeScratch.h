// Kernels: what the reverse sweep needs of values a loop overwrites goes to global scratch instead
// of a tape (a kernel cannot grow one). Each push stores into its slot of a launcher-provided
// array, one slot per run of the push (the thread and the iterations of the counted loops around
// it, ad/analysis/RunSlots.h), and the reverse sweep reads the same slot where it popped: the
// counters of a loop and of its reverse take the same values.
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// A Diagnostic where a tape's push is in a loop whose runs cannot be counted before the launch.
void tapesInScratch(ir::Function& kernel);

}  // namespace adjoint::transforms
