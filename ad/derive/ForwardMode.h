// Forward mode: each active value carries its tangent (x_dot) next to it, and the derivative
// function returns the tangent of the result, d f(x + t * x_dot) / dt at t = 0.
#pragma once

#include "ad/derive/Requests.h"

namespace adjoint::derive {

ir::Function forwardFunction(const ir::Module& m, const ir::Function& f, const Request& r, Requests& q);

}  // namespace adjoint::derive
