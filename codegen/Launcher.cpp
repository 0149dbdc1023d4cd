#include "codegen/Launcher.h"

#include <algorithm>

#include "ad/ir/Names.h"
#include "ad/ir/Naming.h"
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

// " * runs" for the slots per thread: a literal as it is (none for 1), an expression over the
// kernel's scalar parameters and the launch's sizes (long long) at least 0 (a loop that does not
// run needs no slots).
std::string timesRuns(const ExprPtr& perThread) {
  if (perThread->kind != ExprKind::Number) {
    ExprPtr launched = substitute(perThread, [](const Expr& v) -> ExprPtr {
      if (v.text == "blockDim.x") return var("block.x", v.type);
      return v.text == "gridDim.x" ? var("grid.x", v.type) : nullptr;
    });
    return " * std::max(0LL, " + print(*launched) + ")";
  }
  return perThread->value == 1 ? "" : " * " + std::to_string(std::max(0LL, static_cast<long long>(perThread->value)));
}

// The slots of the kernel's sort-and-segment sums (adjoints added at indices read from data):
// one per run of each such addition in the launch, the keys filled with adjoint::kNoSegment. Row
// segments take the slots as rows of their width: a key per row, a key and a value per element.
std::string segmentSlots(const Function& kernel) {
  if (kernel.segments.empty()) return "";
  bool rows = std::any_of(kernel.segments.begin(), kernel.segments.end(), [](const auto& g) { return g.width; });
  bool elements = std::any_of(kernel.segments.begin(), kernel.segments.end(), [](const auto& g) { return !g.width; });
  std::string body;
  if (elements)
    body +=
        "  // Each run of an addition at an index read from data records its (index, value) pair in a\n"
        "  // slot of its own; the pairs are sorted by index and added below, each index's in slot order.\n";
  if (rows)
    body +=
        "  // An addition at a row that data picks per row of the thread's elements keeps its value in\n"
        "  // the slot of the element, the row's key once per row; the rows are sorted by key and added\n"
        "  // below, each key's rows column by column in row order.\n";
  if (kernel.columnSums.empty()) body += "  adjoint::Scratch scratch(stream);\n";
  for (const Function::Segments& g : kernel.segments) {
    std::string runs = "static_cast<long long>(grid.x) * block.x" + timesRuns(g.perThread);
    if (!g.width) {
      body += "  long long " + g.slots + " = " + runs + ";\n";
      continue;
    }
    body += "  long long " + g.widthName + " = std::max(1LL, static_cast<long long>(" + print(*g.width) +
            "));\n  long long " + g.rows + " = (" + runs + " + " + g.widthName + " - 1) / " + g.widthName +
            ";\n  long long " + g.slots + " = " + g.rows + " * " + g.widthName + ";\n";
  }
  for (const Function::Segments& g : kernel.segments) {
    std::string value = kernel.param(g.values)->type.scalarSpelling();
    if (g.width) body += "  unsigned int* " + g.rowKeys + " = scratch.take<unsigned int>(" + g.rows + ");\n";
    body += "  unsigned int* " + g.keys + " = scratch.take<unsigned int>(" + g.slots + ");\n  " + value + "* " +
            g.values + " = scratch.take<" + value + ">(" + g.slots + ");\n";
  }
  body += "  if (!scratch) return scratch.status();\n";
  for (const Function::Segments& g : kernel.segments) {
    if (g.width)
      body += "  if (cudaError_t e = cudaMemsetAsync(" + g.rowKeys + ", 0xff, " + g.rows + " * sizeof(*" + g.rowKeys +
              "), stream)) return e;\n";
    body += "  if (cudaError_t e = cudaMemsetAsync(" + g.keys + ", 0xff, " + g.slots + " * sizeof(*" + g.keys +
            "), stream)) return e;\n";
  }
  return body;
}

// The global scratch of the values the kernel's reverse sweep reads back (instead of a tape): a
// slot per run of each store. `scratch`: whether the launcher already declared its Scratch.
std::string tapeSlots(const Function& kernel, bool scratch) {
  if (kernel.tapeScratch.empty()) return "";
  std::string body =
      "  // What the reverse sweep needs of the values the kernel's loops overwrite: a slot per run of the\n"
      "  // store that keeps it, per thread of the launch.\n";
  if (!scratch) body += "  adjoint::Scratch scratch(stream);\n";
  for (const Function::TapeScratch& t : kernel.tapeScratch) {
    std::string element = kernel.param(t.name)->type.scalarSpelling();
    std::string runs = timesRuns(t.perThread);
    body += "  " + element + "* " + t.name + " = scratch.take<" + element +
            ">(static_cast<long long>(grid.x) * block.x" + runs + ");\n";
  }
  return body + "  if (!scratch) return scratch.status();\n";
}

// A vjp launcher's refusal of one buffer given for two of its adjoints (host code launching the
// kernels it keeps internal gives each adjoint a buffer of its own: ad/derive/SharedBuffers.h).
std::string distinctAdjoints(const Function& kernel) {
  if (kernel.internal) return "";
  std::string bars;
  int count = 0;
  for (const Param& p : callerParams(kernel))
    if (p.role == Role::Adjoint && p.type.pointer) bars += (count++ ? ", " : "") + p.name;
  if (count < 2) return "";
  return "  // Each adjoint an array of its own: in one buffer given for two, a seed and the additions into\n"
         "  // it, or two stores, would meet.\n"
         "  if (adjoint::one_buffer_twice({" +
         bars + "})) return cudaErrorInvalidValue;\n";
}

}  // namespace

std::string launcherSignature(const Function& kernel, bool declaration) {
  std::string s = std::string(kernel.internal ? "static " : "") + "cudaError_t " + naming::launcherOf(kernel.name) +
                  "(dim3 grid, dim3 block, size_t shmem, cudaStream_t stream";
  for (const Param& p : callerParams(kernel)) s += ", " + p.type.paramSpelling() + " " + p.name;
  if (!isVjpKernel(kernel)) return s + ")";
  // Every vjp launcher takes the caller's adjoint::Bars (host code's the one its plan allows:
  // ad/derive/AdjointStarts.h); where it changes nothing, unread.
  bool read = kernel.takesFreshBars();
  return s + ", " + (read || declaration ? "" : "[[maybe_unused]] ") + "adjoint::Bars " + naming::kBarsArgument +
         (declaration ? " = adjoint::Bars::add)" : ")");
}

bool isVjpKernel(const Function& kernel) {
  return kernel.kernel && std::any_of(kernel.params.begin(), kernel.params.end(),
                                      [](const Param& p) { return p.role == Role::Adjoint; });
}

std::string launcher(const Function& kernel) {
  std::string body = distinctAdjoints(kernel);
  // The kernel it runs: a vjp over adjoint::Bars, the instantiation the caller asks for.
  std::string run = kernel.name;
  if (kernel.takesFreshBars()) {
    run = naming::kVjpKernel;
    body += "  // The instantiation for the caller's adjoint::Bars.\n  const auto " + run + " = " +
            naming::kBarsArgument + " == adjoint::Bars::fresh ? " + kernel.name + "<true> : " + kernel.name +
            "<false>;\n";
  }
  if (kernel.needsOneDimensionalLaunch)
    body +=
        "  // The plain += of adjoints above relies on threads that differ in threadIdx.x alone.\n"
        "  if (grid.y * grid.z * block.y * block.z != 1) return cudaErrorInvalidValue;\n";
  else if (kernel.oneDimensionalBlocks)
    body +=
        "  // The cooperative groups of the kernel (or of what it calls) are written for threads that\n"
        "  // differ in threadIdx.x alone.\n"
        "  if (block.y * block.z != 1) return cudaErrorInvalidValue;\n";
  if (kernel.plainAddBlocks.wholeWarps)
    body +=
        "  // ... and on blocks of whole warps, each warp of the grid a row of its own.\n"
        "  if (block.x % 32 != 0) return cudaErrorInvalidValue;\n";
  if (kernel.plainAddBlocks.maxThreads)
    body += "  // ... and on blocks of at most " + std::to_string(kernel.plainAddBlocks.maxThreads) +
            " threads, as its indices assume.\n"
            "  if (block.x > " +
            std::to_string(kernel.plainAddBlocks.maxThreads) + ") return cudaErrorInvalidValue;\n";
  if (!kernel.positiveSizes.empty()) {
    std::string below;
    for (const std::string& size : kernel.positiveSizes) below += (below.empty() ? "" : " || ") + size + " < 1";
    body +=
        "  // ... and on sizes of at least 1: the adjoints' indices, built from the digits of the thread's\n"
        "  // index, are then distinct over threads.\n  if (" +
        below + ") return cudaErrorInvalidValue;\n";
  }
  // The kernel's arguments: the caller's, then what the launcher provides.
  std::string args;
  for (const Param& p : kernel.params)
    args += ", " + (p.role == Role::BlockSums ? "sums" : p.role == Role::VirtualBlocks ? "grid.x" : p.name);
  if (kernel.dynamicSharedParts > 1)
    body += "  // The kernel keeps " + std::to_string(kernel.dynamicSharedParts) +
            " arrays in dynamic shared memory, each as large as the forward's.\n"
            "  shmem *= " +
            std::to_string(kernel.dynamicSharedParts) +
            ";\n"
            "  if (cudaError_t e = adjoint::allow_shared(" +
            run + ", shmem)) return e;\n";
  if (kernel.blockColumnWidth) {
    std::string width = print(*kernel.blockColumnWidth);
    std::string arrays = std::to_string(kernel.blockColumnArrays);
    body += "  // Each block sums " + arrays + " adjoint array(s) by column in its dynamic shared memory, " + width +
            " elements each,\n  // where they fit; where not, it gets none and adds each value where it belongs.\n"
            "  shmem = " +
            arrays + " * (" + width + " > 0 ? static_cast<size_t>(" + width + ") : 0) * sizeof(" +
            kernel.blockColumnElement.scalarSpelling() +
            ");\n"
            "  if (cudaError_t e = adjoint::shared_if_fits(" +
            run + ", shmem)) return e;\n";
  }
  std::string physical = "grid";
  if (kernel.blocksInTurn) {
    std::string columns = kernel.columnWidth ? ", static_cast<long long>(" + print(*kernel.columnWidth) + ")" : "";
    body += kernel.columnWidth
                ? "  // A few blocks per multiprocessor, each running forward blocks in turn, as many as keep\n"
                  "  // each thread on one column of the adjoints it sums by column.\n"
                : "  // A few blocks per multiprocessor, each running forward blocks in turn.\n";
    body += "  dim3 resident = adjoint::resident_grid(" + run + ", grid, block, shmem" + columns + ");\n";
    physical = "resident";
  }
  if (!kernel.columnSums.empty()) {
    // Slots per thread of the launch, or, summed by column in registers, per thread that runs.
    body +=
        "  // Each thread's slot for the adjoints added at its index modulo a width (a bias's), zeroed;\n"
        "  // their column sums are added below.\n"
        "  adjoint::Scratch scratch(stream);\n"
        "  long long threads = static_cast<long long>(" +
        std::string(kernel.columnWidth ? physical : "grid") + ".x) * block.x;\n";
    for (const Function::ColumnSum& c : kernel.columnSums) {
      std::string t = kernel.param(c.parts)->type.scalarSpelling();
      body += "  " + t + "* " + c.parts + " = scratch.take<" + t + ">(threads);\n";
    }
    body += "  if (!scratch) return scratch.status();\n";
    for (const Function::ColumnSum& c : kernel.columnSums)
      body += "  if (cudaError_t e = cudaMemsetAsync(" + c.parts + ", 0, threads * sizeof(*" + c.parts +
              "), stream)) return e;\n";
  }
  body += segmentSlots(kernel);
  body += tapeSlots(kernel, !kernel.columnSums.empty() || !kernel.segments.empty());
  bool addsAfter = !kernel.columnSums.empty() || !kernel.segments.empty();
  if (kernel.blockSumSlots)
    body +=
        "  // One sum per block and address, added into the address in a fixed order by the last block\n"
        "  // to finish: the same inputs give bitwise the same gradient.\n"
        "  adjoint::BlockSums sums;\n"
        "  cudaError_t status = adjoint::block_sums(" +
        std::to_string(kernel.blockSumSlots) + ", " + physical +
        ", stream, &sums);\n"
        "  if (status == cudaSuccess)\n"
        "    status = adjoint::launch(" +
        run + ", " + physical + ", block, shmem, stream" + args + ");\n";
  else if (!addsAfter)
    body += "  return adjoint::launch(" + run + ", " + physical + ", block, shmem, stream" + args + ");\n";
  else
    body +=
        "  cudaError_t status = adjoint::launch(" + run + ", " + physical + ", block, shmem, stream" + args + ");\n";
  for (const Function::ColumnSum& c : kernel.columnSums)
    body += "  if (status == cudaSuccess)\n    status = adjoint::add_column_sums(" + c.target + ", " + c.parts +
            ", threads, static_cast<long long>(" + print(*c.columns) + "), stream);\n";
  for (const Function::Segments& g : kernel.segments)
    body += "  if (status == cudaSuccess)\n    status = " +
            (g.width ? "adjoint::add_row_segments(" + g.target + ", " + g.rowKeys + ", " + g.keys + ", " + g.values +
                           ", " + g.rows + ", " + g.widthName + ", stream);\n"
                     : "adjoint::add_segments(" + g.target + ", " + g.keys + ", " + g.values + ", " + g.slots +
                           ", stream);\n");
  if (kernel.blockSumSlots || addsAfter) body += "  return status;\n";
  return "// Launches " + kernel.name + " with the forward's launch configuration.\n" +
         launcherSignature(kernel, false) + " {\n" + body + "}\n";
}

}  // namespace adjoint::codegen
