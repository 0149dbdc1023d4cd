// Host functions that launch generated kernels: K_vjp_launch and K_jvp_launch take the forward's
// launch configuration and arguments and run the derivative kernel, giving it the storage
// where its per-block sums meet (adjoint::block_sums) when it has any.
#pragma once

#include <string>

#include "ad/ir/Function.h"

namespace adjoint::codegen {

// The launcher's signature, without the semicolon; a vjp's takes an adjoint::Bars
// last, defaulted to adjoint::Bars::add in the `declaration` (the first one the code has).
std::string launcherSignature(const ir::Function& kernel, bool declaration);
// Whether the kernel is a vjp (it takes adjoints).
bool isVjpKernel(const ir::Function& kernel);
// The launcher's definition.
std::string launcher(const ir::Function& kernel);

}  // namespace adjoint::codegen
