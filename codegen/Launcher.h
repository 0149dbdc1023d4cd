// Host functions that launch generated kernels: K_vjp_launch and K_jvp_launch take the forward's
// launch configuration and arguments, run the derivative kernel, and for a vjp add the
// kernel's per-block partial sums into their targets in a fixed order.
#pragma once

#include <string>

#include "ad/ir/Function.h"

namespace adjoint::codegen {

// The launcher's declaration, without the semicolon.
std::string launcherSignature(const ir::Function& kernel);
// The launcher's definition.
std::string launcher(const ir::Function& kernel);

}  // namespace adjoint::codegen
