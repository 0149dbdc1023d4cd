#include "transforms/UnusedParams.h"

#include "ad/analysis/Activity.h"

namespace adjoint::transforms {

void markUnusedParams(ir::Function& g) {
  std::set<std::string> used = analysis::readVariables(g.body);
  for (ir::Param& p : g.params) p.unused = !used.count(p.name);
}

}  // namespace adjoint::transforms
