#include "ad/driver/Pipeline.h"

#include "ad/analysis/Activity.h"

#include <chrono>

#include <llvm/Support/thread.h>
#include <iostream>

#include "ad/frontend/Frontend.h"
#include "ad/ir/Diagnostic.h"
#include "ad/ir/Printer.h"
#include "transforms/Passes.h"

namespace adjoint::driver {

namespace {

using Clock = std::chrono::steady_clock;

class StageRunner {
 public:
  explicit StageRunner(const PipelineOptions& o) : options_(o) {}
  ~StageRunner() {
    if (options_.timePasses)
      for (auto& [name, ms] : times_) std::cerr << "  " << name << ": " << ms << " ms\n";
  }

  template <class F>
  auto run(const std::string& name, F&& stage) {
    auto start = Clock::now();
    auto result = stage();
    times_.emplace_back(name, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    return result;
  }

  void dump(const std::string& stage, const std::string& text) const {
    if (options_.printAfter == stage || options_.printAfter == "all")
      std::cerr << "// ---- after " << stage << " ----\n" << text << "\n";
  }

 private:
  const PipelineOptions& options_;
  std::vector<std::pair<std::string, double>> times_;
};

ir::Module prepare(const ir::Module& original) {
  ir::Module m = original;
  for (ir::Function& f : m.functions) {
    f.body = ir::clone(f.body);
    transforms::uniqueLocalNames(f);
    transforms::countHalvingLoops(f);
    transforms::extractCalls(f, m);
    transforms::structureJumps(f);
    transforms::uniqueLocalNames(f);
    transforms::flattenBlocks(f);
  }
  return m;
}

std::string printFunctions(const std::vector<ir::Function>& fs) {
  ir::Module m;
  m.functions = fs;
  return ir::print(m);
}

void printDiagnostic(const ir::Module& m, const ir::Diagnostic& d) {
  std::string line = m.sourceLine(d.loc.line);
  std::cerr << m.sourcePath << ":" << d.loc.line << ":" << d.loc.col << ": error: " << d.what() << "\n";
  if (d.loc.line && d.loc.line <= m.sourceLines.size()) {
    std::cerr << "  " << m.sourceLines[d.loc.line - 1] << "\n";
    std::cerr << "  " << std::string(d.loc.col ? d.loc.col - 1 : 0, ' ') << "^\n";
  }
  if (!d.hint.empty()) std::cerr << m.sourcePath << ":" << d.loc.line << ":" << d.loc.col << ": note: " << d.hint << "\n";
}

// A derivative that could only ever be zero is an error, not an output.
void checkDifferentiable(const ir::Function& f, const std::set<std::string>& wrt) {
  std::vector<const ir::Param*> params = derive::differentiatedParams(f, wrt);
  if (params.empty())
    throw ir::Diagnostic(f.loc, "'" + f.name + "' has no float or double parameter to differentiate",
                         "Adjoint differentiates with respect to float and double parameters, arrays and structs of them");
  bool writesArray = false;
  for (const ir::Param* p : params) writesArray |= p->type.pointer && !p->type.constPointee &&
                                                   analysis::writtenVariables(f.body).count(p->name);
  if (!f.returnsFloating() && !writesArray)
    throw ir::Diagnostic(f.loc, "'" + f.name + "' returns '" + f.returnType.paramSpelling() + "' and writes no array, so it has no derivative",
                         "differentiate a function that returns float or double, or writes its results through pointers");
}

}  // namespace

const std::vector<std::string>& stageNames() {
  static const std::vector<std::string> names{"parse", "prepare", "differentiate", "simplify", "parallelize", "emit"};
  return names;
}

namespace {

void simplifyAll(std::vector<ir::Function>& derivatives, const ir::Module& prepared, derive::Mode mode) {
  // What the derivatives call: the forward functions and the other derivatives (dead-code
  // removal reads which pointers a callee only reads from their parameters).
  ir::Module callees = prepared;
  callees.functions.insert(callees.functions.end(), derivatives.begin(), derivatives.end());
  for (ir::Function& d : derivatives) {
    d.body = ir::clone(d.body);  // the passes below edit statements the module shares
    if (d.kernel && mode == derive::Mode::Forward) transforms::dropOutputStores(d, *prepared.find(d.primal));
    transforms::simplify(d);
    transforms::removeDeadCode(d, &callees);
    transforms::shareCommonCalls(d);
    derive::markUnusedParams(d);
  }
}

codegen::Output emitOutput(const ir::Module& original, const std::vector<ir::Function>& derivatives,
                           const codegen::EmitOptions& options) {
  // The forward functions the output copies, without stores nothing reads (the compiler would
  // warn about them in the generated file).
  ir::Module forward = original;
  for (ir::Function& f : forward.functions) {
    f.body = ir::clone(f.body);
    transforms::uniqueLocalNames(f);  // dead-code removal tells variables apart by name
    transforms::removeDeadCode(f, &original);
  }
  codegen::Output out = codegen::emit(forward, derivatives, options);
  out.source = frontend::formatCpp(out.source, "out.cpp");
  out.header = frontend::formatCpp(out.header, "out.h");
  return out;
}

std::optional<PipelineResult> runStages(const ir::Module& original, const PipelineOptions& o, StageRunner& stages) {
  PipelineResult result;
  result.dependencies = original.dependencies;
  try {
    result.prepared = stages.run("prepare", [&] { return prepare(original); });
    stages.dump("prepare", ir::print(result.prepared));
    derive::Request entry{o.function, std::set<std::string>(o.wrt.begin(), o.wrt.end()), true};
    const ir::Function* f = result.prepared.find(o.function);
    if (!f) throw ir::Diagnostic({}, "no function named '" + o.function + "'", "");
    for (const std::string& w : o.wrt)
      if (!f->param(w) || !f->param(w)->type.isFloating())
        throw ir::Diagnostic(f->loc, "'" + w + "' is not a floating-point parameter of '" + o.function + "'",
                             "--wrt takes names of float or double parameters (scalars or arrays)");
    checkDifferentiable(*f, entry.wrt);
    result.derivatives = stages.run("differentiate", [&] { return derive::differentiate(result.prepared, entry, o.mode); });
    stages.dump("differentiate", printFunctions(result.derivatives));
    stages.run("simplify", [&] {
      simplifyAll(result.derivatives, result.prepared, o.mode);
      return 0;
    });
    stages.dump("simplify", printFunctions(result.derivatives));
    stages.run("parallelize", [&] {
      for (ir::Function& d : result.derivatives) {
        if (o.mode == derive::Mode::Reverse && (d.kernel || d.device)) {
          transforms::sinkSeedZeroing(d);
          transforms::parallelizeAdjoints(d, o.deterministic);
        }
        if (o.mode == derive::Mode::Forward && d.kernel) transforms::parallelizeTangents(d);
      }
      return 0;
    });
    stages.dump("parallelize", printFunctions(result.derivatives));
  } catch (const ir::Diagnostic& d) {
    printDiagnostic(original, d);
    return std::nullopt;
  }
  result.output = stages.run("emit", [&] { return emitOutput(original, result.derivatives, o.emit); });
  stages.dump("emit", result.output.source);
  return result;
}

}  // namespace

void runWithLargeStack(const std::function<void()>& fn) {
  llvm::thread worker(std::optional<unsigned>(512u << 20), fn);
  worker.join();
}

std::optional<PipelineResult> runPipeline(const PipelineOptions& o) {
  StageRunner stages(o);
  std::optional<ir::Module> original = stages.run("parse", [&] {
    return frontend::parse({o.sourcePath, o.sourceText, o.compileArgs, o.buildDir, {o.function}});
  });
  if (!original) return std::nullopt;
  stages.dump("parse", ir::print(*original));
  return runStages(*original, o, stages);
}

std::optional<PipelineResult> runPipeline(const ir::Module& parsed, const PipelineOptions& o) {
  StageRunner stages(o);
  return runStages(parsed, o, stages);
}

}  // namespace adjoint::driver
