// Which in-place updates of a kernel can be differentiated from the values they leave behind:
// h[i] = fmax(h[i] + b[i % n], 0) has the derivative [r > 0] of its result r, which is what h[i]
// holds after the kernel. A training step then keeps no copy of h from before the kernel for the
// kernel's pullback (derive/HostVersions.cpp): it runs K_vjp_from_output on h as K left it.
#pragma once

#include <string>

#include "ad/ir/Function.h"

namespace adjoint::analysis {

// The statement through which the kernel `k` stores into its pointer parameter `buffer` the
// single value the reverse of `k` needs of that buffer, when the whole reverse can read it from
// the buffer as `k` leaves it; null otherwise. That holds for `buffer[i] = f(args)` when
//  - it is the kernel's only mention of `buffer` besides the reads `buffer[i]` in args (no other
//    store or read, no call passed the buffer), and it runs in no loop: after the kernel,
//    buffer[i] holds f's result wherever the store ran;
//  - f has a rule that reads its result (adjoint/rules.h: fmax_dx(x, y, r) = [r > y]), and no
//    partial of f reads an argument that reads `buffer`;
//  - each argument that reads `buffer` is a sum or difference of `buffer[i]` and terms that do not
//    read it, whose partials (1, -1) read no values.
const ir::Stmt* storeReadableAfter(const ir::Function& k, const std::string& buffer, const ir::Module& m);

}  // namespace adjoint::analysis
