#include "codegen/Launcher.h"

#include "ad/ir/Printer.h"

namespace adjoint::codegen {

using namespace ir;

namespace {

// The kernel's parameters a caller passes: all but the block sums and count the launcher provides.
std::vector<Param> callerParams(const Function& kernel) {
  std::vector<Param> out;
  for (const Param& p : kernel.params)
    if (!isLauncherProvided(p)) out.push_back(p);
  return out;
}

}  // namespace

std::string launcherSignature(const Function& kernel) {
  std::string s = std::string(kernel.internal ? "static " : "") + "cudaError_t " + kernel.name +
                  "_launch(dim3 grid, dim3 block, size_t shmem, cudaStream_t stream";
  for (const Param& p : callerParams(kernel)) s += ", " + p.type.paramSpelling() + " " + p.name;
  return s + ")";
}

std::string launcher(const Function& kernel) {
  std::string args;
  for (const Param& p : callerParams(kernel)) args += ", " + p.name;
  std::string body;
  if (kernel.needsOneDimensionalLaunch)
    body +=
        "  // The plain += of adjoints above relies on threads that differ in threadIdx.x alone.\n"
        "  if (grid.y * grid.z * block.y * block.z != 1) return cudaErrorInvalidValue;\n";
  if (!kernel.blockSumSlots) {
    body += "  return adjoint::launch(" + kernel.name + ", grid, block, shmem, stream" + args + ");\n";
  } else {
    std::string physical = "grid", extra = "";
    if (kernel.blocksInTurn) {
      body +=
          "  // A few blocks per multiprocessor, each running forward blocks in turn.\n"
          "  dim3 resident = adjoint::resident_grid(" +
          kernel.name + ", grid, block, shmem);\n";
      physical = "resident";
      extra = ", grid.x";
    }
    body +=
        "  // One sum per block and address, added into the address in a fixed order by the last block\n"
        "  // to finish: the same inputs give bitwise the same gradient.\n"
        "  adjoint::BlockSums sums;\n"
        "  cudaError_t status = adjoint::block_sums(" +
        std::to_string(kernel.blockSumSlots) + ", " + physical +
        ", stream, &sums);\n"
        "  if (status == cudaSuccess)\n"
        "    status = adjoint::launch(" +
        kernel.name + ", " + physical + ", block, shmem, stream" + args + ", sums" + extra + ");\n";
    body += "  return status;\n";
  }
  return "// Launches " + kernel.name + " with the forward's launch configuration.\n" + launcherSignature(kernel) +
         " {\n" + body + "}\n";
}

}  // namespace adjoint::codegen
