#include "codegen/Launcher.h"

#include "ad/ir/Printer.h"

namespace adjoint::codegen {

using namespace ir;

namespace {

// The kernel's parameters a caller passes: all but the partial sums the launcher provides.
std::vector<Param> callerParams(const Function& kernel) {
  std::vector<Param> out;
  for (const Param& p : kernel.params)
    if (p.name != "partial_sums" && p.name != "virtual_blocks") out.push_back(p);
  return out;
}

}  // namespace

std::string launcherSignature(const Function& kernel) {
  std::string s = "cudaError_t " + kernel.name + "_launch(dim3 grid, dim3 block, size_t shmem, cudaStream_t stream";
  for (const Param& p : callerParams(kernel)) s += ", " + p.type.paramSpelling() + " " + p.name;
  return s + ")";
}

std::string launcher(const Function& kernel) {
  std::string args;
  for (const Param& p : callerParams(kernel)) args += ", " + p.name;
  std::string body;
  if (kernel.needsOneDimensionalLaunch)
    body += "  // The plain += of adjoints above relies on threads that differ in threadIdx.x alone.\n"
            "  if (grid.y * grid.z * block.y * block.z != 1) return cudaErrorInvalidValue;\n";
  if (kernel.threadSums.empty()) {
    body += "  return adjoint::launch(" + kernel.name + ", grid, block, shmem, stream" + args + ");\n";
  } else {
    std::string physical = "grid", extra = "";
    if (kernel.blocksInTurn) {
      body += "  // Eight times as many blocks as the GPU holds at once, each running forward blocks in turn.\n"
              "  dim3 resident = adjoint::resident_grid(" + kernel.name + ", grid, block, shmem);\n";
      physical = "resident";
      extra = ", grid.x";
    }
    body += "  // One partial sum per warp and address, added into the address in a fixed order:\n"
            "  // the same inputs give bitwise the same gradient.\n"
            "  adjoint::PartialSums partials(" + std::to_string(kernel.threadSums.size()) + ", " + physical + ", block, stream);\n"
            "  cudaError_t status = partials.status();\n"
            "  if (status == cudaSuccess)\n"
            "    status = adjoint::launch(" + kernel.name + ", " + physical + ", block, shmem, stream" + args + ", partials.data()" + extra + ");\n";
    for (size_t k = 0; k < kernel.threadSums.size(); ++k)
      body += "  if (status == cudaSuccess) status = partials.add_to(" + std::to_string(k) + ", &" + print(*kernel.threadSums[k]) + ");\n";
    body += "  return status;\n";
  }
  return "// Launches " + kernel.name + " with the forward's launch configuration.\n" + launcherSignature(kernel) + " {\n" + body + "}\n";
}

}  // namespace adjoint::codegen
