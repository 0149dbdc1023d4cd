// Differentiation of a prepared module (see the prepare passes of driver/Pipeline.cpp) in reverse or
// forward mode: the requested derivative and those of every callee it needs.
#pragma once

#include <vector>

#include "ad/derive/Requests.h"

namespace adjoint::derive {

// Generates the requested derivative functions and those of every callee they need. The entry
// point comes first in the result; helpers follow.
std::vector<ir::Function> differentiate(const ir::Module& prepared, const Request& entry, Mode mode);

}  // namespace adjoint::derive
