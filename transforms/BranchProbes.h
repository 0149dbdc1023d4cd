// Branch probes for `adjoint check`: copies of a function and its callees that report which side
// of each branch they take, so that the checks can run at inputs on both sides of every branch.
#pragma once

#include <string>
#include <vector>

#include "ad/ir/Function.h"

namespace adjoint::transforms {

struct BranchProbes {
  std::vector<ir::Function> functions;  // `f_branch_probe` first, then its callees' probes
  std::vector<std::string> branches;    // branch k: "line L: condition"
};

// The probes of `entry` and every function of `m` it calls: each if, while and do-while
// condition, each `?:` condition and the left side of each `&&` and `||` (which decides whether the
// right side runs) becomes `hook(k, condition)`, where `hook(int, bool)` returns its second
// argument and records which side branch k took. Calls between functions go to their probes.
BranchProbes branchProbes(const ir::Module& m, const std::string& entry, const std::string& hook);

}  // namespace adjoint::transforms
