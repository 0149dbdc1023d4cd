// Reverse mode: the adjoint of one function as a forward sweep (the original code, recording
// what the reverse sweep needs) followed by a reverse sweep (adjoints of the statements in
// reverse order). See TapePlan.h for what is recorded and why.
#pragma once

#include "ad/derive/Requests.h"

namespace adjoint::derive {

ir::Function reverseFunction(const ir::Module& m, const ir::Function& f, const Request& r, Requests& q);

}  // namespace adjoint::derive
