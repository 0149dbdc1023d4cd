// The pipeline: one table of passes, in order (passes() below), from parsing to formatted source.
// Each pass can be printed before and after it runs (--print-before, --print-after), and timed
// (--time-passes); `adjoint --list-passes` prints the table.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ad/derive/Derivatives.h"
#include "codegen/Emit.h"

namespace adjoint::driver {

struct PipelineOptions {
  std::string sourcePath;
  std::optional<std::string> sourceText;  // the source itself, instead of reading sourcePath
  std::vector<std::string> compileArgs;
  std::string buildDir;
  std::string function;  // as requested: "f", "ns::f", "dot<double>", "Chain::energy"
  std::vector<std::string> wrt;
  derive::Mode mode = derive::Mode::Reverse;
  std::vector<std::string> printBefore, printAfter;  // pass names, or "all"
  bool timePasses = false;
  bool deterministic = false;              // kernels: no floating-point atomics in gradients
  std::optional<derive::TrainStep> train;  // adjoint train-step: the entry point is f_train_step
  codegen::EmitOptions emit;
};

struct PipelineResult {
  std::string function;                   // the differentiated function's name in the IR
  std::vector<std::string> dependencies;  // the files the result depends on
  ir::Module prepared;
  std::vector<ir::Function> derivatives;
  codegen::Output output;
};

// What the passes work on: the parsed module, the module prepared for differentiation, the
// derivatives, and the output source.
struct PipelineState {
  PipelineOptions options;  // `function` as the frontend names it (Chain_energy for Chain::energy)
  std::optional<ir::Module> parsed;
  ir::Module prepared;
  std::vector<ir::Function> derivatives;
  codegen::Output output;
};

struct Pass {
  std::string name;
  std::string description;
  enum class Shows { Parsed, Prepared, Derivatives, Source } shows;  // what --print-after prints
  std::function<void(PipelineState&)> run;                           // throws ir::Diagnostic for input it cannot handle
};

// The pipeline, in the order the passes run.
const std::vector<Pass>& passes();
// Whether `name` is a pass of the table (or "all").
bool isPassName(const std::string& name);

// Runs every pass. Returns nothing after printing diagnostics.
std::optional<PipelineResult> runPipeline(const PipelineOptions& options);
// The passes after parsing, on a module parsed before (which holds options.function).
std::optional<PipelineResult> runPipeline(const ir::Module& parsed, const PipelineOptions& options);

// Runs `fn` on a thread with a stack large enough for the passes' recursion over the deepest
// expressions the frontend accepts.
void runWithLargeStack(const std::function<void()>& fn);

}  // namespace adjoint::driver
