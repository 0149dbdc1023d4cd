// A launch may pass one buffer for two of its kernel's parameters: in place through two names
// (scale(h, h, s)), a buffer read twice (mul(x, x, y)), or parts of one buffer (stencil(x, x + 1,
// y), a layer's input and output in one array). The kernel's vjp treats each parameter's adjoint
// as an array of its own: it adds into a parameter's adjoint by that parameter's rule (plain +=
// where its index is the thread's own) and zeroes the seed of a parameter the kernel writes.
// Through one buffer, one parameter's additions would land on elements another thread adds to,
// or on a seed before it is read, or after it is zeroed.
//
// So a parameter the kernel only reads that shares its buffer with another the kernel writes, or
// with an earlier one, gets a private adjoint: zeroed once, passed to the launch's pullback, then
// added into the buffer's adjoint (the pullback of a copy of the buffer it reads), which leaves
// it zero for the next. Where the two point at different offsets, the pullback checks whether
// what they touch overlaps and keeps the adjoint apart only then.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ad/derive/HostSteps.h"
#include "ad/ir/Names.h"

namespace adjoint::derive {

struct PrivateAdjoint {
  size_t step, argument;  // argument: among the step's derivative arguments
  std::string name, count;
  // The other arguments into the same buffer, and the local that says whether what they touch
  // overlaps what this one reads; empty where one of them has the same offset (they always do).
  std::vector<size_t> others;
  std::string overlaps;
};

// The private adjoints of the steps' launches; `derivatives[k]`: step k's derivative arguments
// (null: none), empty for a step without a pullback.
std::vector<PrivateAdjoint> planPrivateAdjoints(const std::vector<Step>& steps,
                                                const std::vector<std::vector<const BufferArg*>>& derivatives,
                                                ir::NameSet& names);

// How many elements of its buffer the step touches from where the argument points.
using Touched = std::function<ir::ExprPtr(const BufferArg&)>;

// Step k's pullback arguments `real` with its private adjoints in their places.
std::vector<ir::ExprPtr> withPrivateAdjoints(size_t k, const std::vector<PrivateAdjoint>& privates,
                                             std::vector<ir::ExprPtr> real);
// Before step k's pullback: the checks of whether arguments at different offsets overlap.
ir::StmtList checkOverlaps(size_t k, const std::vector<PrivateAdjoint>& privates, const Step& step,
                           const std::vector<const BufferArg*>& derivatives, const Touched& touched);
// After step k's pullback: each private adjoint added into the adjoint `real` names (copy_vjp).
ir::StmtList addPrivateAdjoints(size_t k, const std::vector<PrivateAdjoint>& privates, const Step& step,
                                const std::vector<const BufferArg*>& derivatives, const std::vector<ir::ExprPtr>& real,
                                const Touched& touched, const ir::ExprPtr& stream, const ir::ExprPtr& status);

}  // namespace adjoint::derive
