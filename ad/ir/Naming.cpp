#include "ad/ir/Naming.h"

namespace adjoint::ir::naming {

namespace {

bool endsWith(const std::string& name, const std::string& suffix) {
  return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string adjointOf(const std::string& v) { return v + "_bar"; }
std::string tangentOf(const std::string& v) { return v + "_dot"; }
std::string accumulatorOf(const std::string& p) { return adjointOf(p) + "_acc"; }
std::string updatedAdjointOf(const std::string& v) { return adjointOf(v) + "_new"; }
std::string tapeOf(const std::string& v) { return v + "_tape"; }
std::string loopCountOf(unsigned line) { return "k_L" + std::to_string(line); }
std::string savedBefore(const std::string& v, unsigned line) { return v + "_before_L" + std::to_string(line); }

bool isAdjoint(const std::string& name) {
  return endsWith(name, "_bar") || endsWith(name, "_bar_acc") || endsWith(name, "_bar_new");
}
bool isTangent(const std::string& name) { return endsWith(name, "_dot"); }

bool isReserved(const std::string& name) {
  for (const char* suffix : {"_bar", "_dot", "_tape", "_bar_acc", "_bar_new"})
    if (endsWith(name, suffix)) return true;
  bool loopCount =
      name.rfind("k_L", 0) == 0 && name.size() > 3 && name.find_first_not_of("0123456789", 3) == std::string::npos;
  return loopCount || name == kBlockSums || name == kVirtualBlock || name == kVirtualBlocks || name == kFreshBars ||
         name == kVjpKernel || name == kBarsArgument;
}

std::string derivativeOf(const std::string& f, Derivative kind, Variant variant) {
  const char* suffix = kind == Derivative::Gradient ? "_grad"
                       : kind == Derivative::Vjp    ? "_vjp"
                       : kind == Derivative::Jvp    ? "_jvp"
                                                    : "_pullback";
  return f + (variant == Variant::WithValue ? "_value_and" : "") + suffix +
         (variant == Variant::FromOutput ? "_from_output" : "");
}

std::string withRespectTo(const std::string& name, const std::set<std::string>& wrt) {
  std::string out = name + "_wrt";
  for (const std::string& p : wrt) out += "_" + p;
  return out;
}

std::string launcherOf(const std::string& kernel) { return kernel + "_launch"; }
std::string trainStepOf(const std::string& f) { return f + "_train_step"; }
std::string branchProbeOf(const std::string& f) { return f + "_branch_probe"; }

}  // namespace adjoint::ir::naming
