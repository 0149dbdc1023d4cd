#include "driver/Pipeline.h"

#include <llvm/Support/thread.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "ad/analysis/Activity.h"
#include "ad/derive/HostLevel.h"
#include "ad/frontend/Frontend.h"
#include "ad/ir/Diagnostic.h"
#include "ad/ir/Printer.h"
#include "transforms/BlocksInTurn.h"
#include "transforms/CommonCalls.h"
#include "transforms/DeadCode.h"
#include "transforms/DropOutputStores.h"
#include "transforms/DynamicShared.h"
#include "transforms/ExtractCalls.h"
#include "transforms/FlattenBlocks.h"
#include "transforms/ForwardSums.h"
#include "transforms/FreshBars.h"
#include "transforms/HalvingLoops.h"
#include "transforms/JoinRowPasses.h"
#include "transforms/ParallelAdjoints.h"
#include "transforms/RegisterSums.h"
#include "transforms/ReservedNames.h"
#include "transforms/RowParameters.h"
#include "transforms/RunningExtremes.h"
#include "transforms/SeedStores.h"
#include "transforms/Simplify.h"
#include "transforms/StructureJumps.h"
#include "transforms/TapeScratch.h"
#include "transforms/UniqueNames.h"
#include "transforms/UnusedParams.h"
#include "transforms/VectorLanes.h"
#include "transforms/WarpRows.h"
#include "transforms/ZeroedAdjoints.h"

namespace adjoint::driver {

namespace {

using Shows = Pass::Shows;
using derive::Mode;

// Thrown by a pass after the diagnostics it printed itself (the frontend's, through Clang).
struct Reported {};

// Runs `fn` on every function of the module being prepared, or on every derivative.
template <class F>
std::function<void(PipelineState&)> eachPrepared(F fn) {
  return [fn](PipelineState& s) {
    for (ir::Function& f : s.prepared.functions) fn(f, s);
  };
}
template <class F>
std::function<void(PipelineState&)> eachDerivative(F fn) {
  return [fn](PipelineState& s) {
    for (ir::Function& d : s.derivatives) fn(d, s);
  };
}

bool reverse(const PipelineState& s) { return s.options.mode == Mode::Reverse; }

void parse(PipelineState& s) {
  const PipelineOptions& o = s.options;
  s.parsed = frontend::parse({o.sourcePath, o.sourceText, o.compileArgs, o.buildDir, {o.function}});
  if (!s.parsed) throw Reported{};
  s.options.function = s.parsed->roots.front();
  s.prepared = *s.parsed;
  for (ir::Function& f : s.prepared.functions) f.body = ir::clone(f.body);  // the parsed module stays as written
}

// A derivative that could only ever be zero is an error, not an output.
void checkRequest(const ir::Function* f, const PipelineOptions& o) {
  if (!f) throw ir::Diagnostic({}, "no function named '" + o.function + "'", "");
  for (const std::string& w : o.wrt)
    if (!f->param(w) || !f->param(w)->type.isFloating())
      throw ir::Diagnostic(f->loc, "'" + w + "' is not a floating-point parameter of '" + o.function + "'",
                           "--wrt takes names of float or double parameters (scalars or arrays)");
  std::set<std::string> wrt(o.wrt.begin(), o.wrt.end());
  std::vector<const ir::Param*> params = derive::differentiatedParams(*f, wrt);
  if (params.empty())
    throw ir::Diagnostic(
        f->loc, "'" + f->name + "' has no float or double parameter to differentiate",
        "Adjoint differentiates with respect to float and double parameters, arrays and structs of them");
  std::set<std::string> written = analysis::writtenVariables(f->body);
  bool writesArray = false;
  for (const ir::Param* p : params) writesArray |= p->type.pointer && !p->type.constPointee && written.count(p->name);
  if (!f->returnsFloating() && !writesArray)
    throw ir::Diagnostic(
        f->loc,
        "'" + f->name + "' returns '" + f->returnType.paramSpelling() +
            "' and writes no array, so it has no derivative",
        "differentiate a function that returns float or double, or writes its results through pointers");
}

void differentiate(PipelineState& s) {
  const PipelineOptions& o = s.options;
  checkRequest(s.prepared.find(o.function), o);
  derive::Request entry{o.function, std::set<std::string>(o.wrt.begin(), o.wrt.end()), true, o.train};
  if (o.train && !derive::isHostLevel(*s.prepared.find(o.function), s.prepared))
    throw ir::Diagnostic(s.prepared.find(o.function)->loc,
                         "train-step takes host code: '" + o.function + "' launches no kernel and calls no GEMM",
                         "write the training step's forward as a host function that launches the kernels");
  s.derivatives = derive::differentiate(s.prepared, entry, o.mode);
  for (ir::Function& d : s.derivatives)
    d.body = ir::clone(d.body);  // the passes below edit statements the module shares
}

// What the derivatives call: the forward functions and the other derivatives (dead-code removal
// reads which pointers a callee only reads from their parameters).
void removeDeadCode(PipelineState& s) {
  ir::Module callees = s.prepared;
  callees.functions.insert(callees.functions.end(), s.derivatives.begin(), s.derivatives.end());
  for (ir::Function& d : s.derivatives) transforms::removeDeadCode(d, &callees);
}

void emit(PipelineState& s) {
  // The forward functions the output copies, without stores nothing reads (the compiler would
  // warn about them in the generated file).
  ir::Module forward = *s.parsed;
  for (ir::Function& f : forward.functions) {
    f.body = ir::clone(f.body);
    transforms::uniqueLocalNames(f);  // dead-code removal tells variables apart by name
    transforms::removeDeadCode(f, &*s.parsed);
  }
  s.output = codegen::emit(forward, s.derivatives, s.options.emit);
}

void format(PipelineState& s) {
  s.output.source = frontend::formatCpp(s.output.source, "out.cpp");
  s.output.header = frontend::formatCpp(s.output.header, "out.h");
}

}  // namespace

const std::vector<Pass>& passes() {
  static const std::vector<Pass> table{
      {"parse", "read the source with Clang and convert the functions it needs to the IR", Shows::Parsed, parse},
      {"reserve-names", "rename parameters and locals named as generated variables are (x_bar becomes x_bar_)",
       Shows::Prepared, eachPrepared([](ir::Function& f, PipelineState&) { transforms::renameReservedNames(f); })},
      {"unique-names", "give every local of a function its own name", Shows::Prepared,
       eachPrepared([](ir::Function& f, PipelineState&) { transforms::uniqueLocalNames(f); })},
      {"halving-loops", "make halving loops of device code (c /= 2, c >>= 1) counted loops", Shows::Prepared,
       eachPrepared([](ir::Function& f, PipelineState&) { transforms::countHalvingLoops(f); })},
      {"extract-calls", "move calls of the program's functions into statements of their own, under their guards",
       Shows::Prepared,
       eachPrepared([](ir::Function& f, PipelineState& s) { transforms::extractCalls(f, s.prepared); })},
      {"structure-jumps", "bring break, continue and return into tail position (inside inlined calls first)",
       Shows::Prepared, eachPrepared([](ir::Function& f, PipelineState&) { transforms::structureJumps(f); })},
      {"rename-copies", "give the declarations that structure-jumps copied names of their own", Shows::Prepared,
       eachPrepared([](ir::Function& f, PipelineState&) { transforms::uniqueLocalNames(f); })},
      {"flatten-blocks", "remove nested { } blocks", Shows::Prepared,
       eachPrepared([](ir::Function& f, PipelineState&) { transforms::flattenBlocks(f); })},
      {"running-extremes", "track a loop's running maximum or minimum by the iteration that last set it",
       Shows::Prepared,
       eachPrepared([](ir::Function& f, PipelineState& s) { transforms::trackRunningExtremes(f, s.prepared); })},
      {"differentiate", "write the derivative of the requested function and of the functions it calls",
       Shows::Derivatives, differentiate},
      {"drop-output-stores", "forward mode of kernels: leave out the stores into outputs the kernel never reads",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState& s) {
         // (The jvps of kernels that host code launches write what the kernels write: host code reads it.)
         if (d.kernel && !d.internal && !reverse(s)) transforms::dropOutputStores(d, *s.prepared.find(d.primal));
       })},
      {"tape-scratch",
       "reverse mode of kernels: keep what a loop overwrites and the reverse needs in global scratch, a slot per run, "
       "instead of on a tape",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState& s) {
         if (reverse(s) && d.kernel) transforms::tapesInScratch(d);
       })},
      {"simplify",
       "join accumulations into one place: neighbouring ones, in device code also ones apart whose statements between "
       "leave the place alone (in host code, a zeroing with the accumulation after it)",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState&) { transforms::simplify(d); })},
      {"zeroed-adjoints", "store an accumulation into a local adjoint that holds zero there (x_bar += e is x_bar = e)",
       Shows::Derivatives,
       eachDerivative([](ir::Function& d, PipelineState&) { transforms::storeIntoZeroedAdjoints(d); })},
      {"join-row-passes",
       "reverse mode of device code: the additions into an adjoint array of loops over the same row made in the "
       "last of them, one read-modify-write of each element",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState& s) {
         if (reverse(s) && (d.kernel || d.device)) transforms::joinRowPasses(d, s.prepared);
       })},
      {"forward-sums",
       "reverse mode of device code: a loop that only sums a fixed factor times what the forward's loop computes "
       "made a sum in that loop, added once",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState& s) {
         if (reverse(s) && (d.kernel || d.device)) transforms::sumInForwardSweep(d, s.prepared);
       })},
      {"dead-code", "remove computations nothing reads", Shows::Derivatives, removeDeadCode},
      {"register-sums", "CPU code: sum an adjoint element a loop adds to at one index in a local, added after the loop",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState&) { transforms::sumInRegisters(d); })},
      {"common-calls", "compute a math call that neighbouring statements repeat once, into a named constant",
       Shows::Derivatives,
       eachDerivative([](ir::Function& d, PipelineState& s) { transforms::shareCommonCalls(d, s.prepared); })},
      {"unused-params", "mark the parameters a derivative does not read [[maybe_unused]]", Shows::Derivatives,
       eachDerivative([](ir::Function& d, PipelineState&) { transforms::markUnusedParams(d); })},
      {"sink-seed-zeroing", "reverse mode of device code: move the stores that zero a seed to the end of their block",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState& s) {
         if (reverse(s) && (d.kernel || d.device)) transforms::sinkSeedZeroing(d);
       })},
      {"dynamic-shared", "kernels: a slice of the dynamic shared memory for each array there, adjoints included",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState&) {
         if (d.kernel) transforms::placeDynamicShared(d);
       })},
      {"parallel-adjoints",
       "reverse mode of device code: plain +=, per-block sums or atomics for each adjoint added to memory",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState& s) {
         if (reverse(s) && (d.kernel || d.device)) transforms::parallelizeAdjoints(d, s.options.deterministic);
       })},
      {"warp-rows",
       "reverse mode of kernels: a loop of each thread over its own row walked by the whole warp over its "
       "threads' rows, its loads neighbours",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState& s) {
         if (reverse(s) && d.kernel) transforms::walkRowsByWarp(d, s.options.deterministic);
       })},
      {"blocks-in-turn", "reverse mode of kernels with register sums: run the forward's blocks in turn on fewer blocks",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState& s) {
         if (reverse(s) && d.kernel && (d.blockSumSlots > 0 || d.columnWidth || d.blockColumnWidth))
           d.blocksInTurn = transforms::runBlocksInTurn(d);
       })},
      {"parallel-tangents", "forward mode of kernels: per-warp sums for the atomicAdds into one address",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState& s) {
         if (!reverse(s) && d.kernel) transforms::parallelizeTangents(d);
       })},
      {"common-factors",
       "compute a product or quotient of derivatives that neighbouring statements repeat once, into a "
       "named constant",
       Shows::Derivatives,
       eachDerivative([](ir::Function& d, PipelineState& s) { transforms::shareCommonFactors(d, s.prepared); })},
      {"seed-loads",
       "reverse mode of kernels: load an adjoint element that neighbouring statements read once, into a named "
       "constant",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState& s) {
         if (reverse(s) && d.kernel) transforms::shareSeedLoads(d, s.prepared);
       })},
      {"row-parameters", "take parameters that are arrays of arrays as the caller passes them, indexed as one array",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState&) { transforms::takeRowParameters(d); })},
      {"vector-lanes",
       "device code: the lanes of a 128-bit vector that a derivative reads or writes one at a time, moved in one "
       "access",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState&) { transforms::moveLanesTogether(d); })},
      {"fresh-bars",
       "reverse mode of kernels: where the caller passes adjoint::Bars::fresh, store an input's adjoint that gets "
       "one addition per element, and leave the seeds nothing reads again unzeroed",
       Shows::Derivatives, eachDerivative([](ir::Function& d, PipelineState& s) {
         const ir::Function* primal = s.prepared.find(d.primal);
         if (reverse(s) && d.kernel && primal) transforms::allowFreshBars(d, *primal);
       })},
      {"emit", "write the source and the header: the derivatives, copies of the forward functions they call, launchers",
       Shows::Source, emit},
      {"format", "format the source and the header with clang-format's LLVM style", Shows::Source, format},
  };
  return table;
}

bool isPassName(const std::string& name) {
  return name == "all" || std::any_of(passes().begin(), passes().end(), [&](const Pass& p) { return p.name == name; });
}

namespace {

bool named(const std::vector<std::string>& names, const std::string& pass) {
  return std::find(names.begin(), names.end(), pass) != names.end() ||
         std::find(names.begin(), names.end(), "all") != names.end();
}

std::string shown(const PipelineState& s, Shows what) {
  switch (what) {
    case Shows::Parsed:
      return s.parsed ? ir::print(*s.parsed) : "";
    case Shows::Prepared:
      return ir::print(s.prepared);
    case Shows::Derivatives: {
      ir::Module m;
      m.functions = s.derivatives;
      return ir::print(m);
    }
    case Shows::Source:
      return s.output.source;
  }
  return "";
}

void printDiagnostic(const ir::Module& m, const ir::Diagnostic& d) {
  std::string line = m.sourceLine(d.loc.line);
  std::cerr << m.sourcePath << ":" << d.loc.line << ":" << d.loc.col << ": error: " << d.what() << "\n";
  if (d.loc.line && d.loc.line <= m.sourceLines.size()) {
    std::cerr << "  " << m.sourceLines[d.loc.line - 1] << "\n";
    std::cerr << "  " << std::string(d.loc.col ? d.loc.col - 1 : 0, ' ') << "^\n";
  }
  if (!d.hint.empty())
    std::cerr << m.sourcePath << ":" << d.loc.line << ":" << d.loc.col << ": note: " << d.hint << "\n";
}

// Runs the passes from `first` on, printing and timing them as the options ask.
std::optional<PipelineResult> runFrom(PipelineState& s, size_t first) {
  using Clock = std::chrono::steady_clock;
  const PipelineOptions& o = s.options;
  std::vector<std::pair<std::string, double>> times;
  bool ok = true;
  try {
    for (size_t k = first; k < passes().size(); ++k) {
      const Pass& pass = passes()[k];
      if (named(o.printBefore, pass.name))
        std::cerr << "// ---- before " << pass.name << " ----\n" << shown(s, pass.shows) << "\n";
      auto start = Clock::now();
      pass.run(s);
      times.emplace_back(pass.name, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      if (named(o.printAfter, pass.name))
        std::cerr << "// ---- after " << pass.name << " ----\n" << shown(s, pass.shows) << "\n";
    }
  } catch (const ir::Diagnostic& d) {
    printDiagnostic(*s.parsed, d);
    ok = false;
  } catch (const Reported&) {
    ok = false;
  } catch (const ir::InternalError& e) {
    std::cerr
        << "internal error: " << e.what() << "\n"
        << "note: this is a bug in Adjoint, not in your code; please report it with the input file and the command\n";
    ok = false;
  }
  if (o.timePasses)
    for (auto& [name, ms] : times) std::cerr << "  " << name << ": " << ms << " ms\n";
  if (!ok) return std::nullopt;
  return PipelineResult{o.function, s.parsed->dependencies, std::move(s.prepared), std::move(s.derivatives),
                        std::move(s.output)};
}

}  // namespace

void runWithLargeStack(const std::function<void()>& fn) {
  llvm::thread worker(std::optional<unsigned>(512u << 20), fn);
  worker.join();
}

std::optional<PipelineResult> runPipeline(const PipelineOptions& o) {
  PipelineState s{o, std::nullopt, {}, {}, {}};
  return runFrom(s, 0);
}

std::optional<PipelineResult> runPipeline(const ir::Module& parsed, const PipelineOptions& o) {
  PipelineState s{o, parsed, parsed, {}, {}};
  for (ir::Function& f : s.prepared.functions) f.body = ir::clone(f.body);
  return runFrom(s, 1);
}

}  // namespace adjoint::driver
