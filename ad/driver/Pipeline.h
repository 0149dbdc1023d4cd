// The stages of Adjoint, in order. Each stage can be printed after it runs (--print-after) and
// timed (--time-passes).
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
  std::string function;
  std::vector<std::string> wrt;
  derive::Mode mode = derive::Mode::Reverse;
  std::string printAfter;  // stage name, or "all"
  bool timePasses = false;
  bool deterministic = false;  // kernels: no floating-point atomics in gradients
  codegen::EmitOptions emit;
};

struct PipelineResult {
  std::vector<std::string> dependencies;  // the files the result depends on
  ir::Module prepared;
  std::vector<ir::Function> derivatives;
  codegen::Output output;
};

// Runs parse → prepare → differentiate → emit → format. Returns nothing after printing
// diagnostics.
std::optional<PipelineResult> runPipeline(const PipelineOptions& options);
// The stages after parsing, on a module parsed before (which holds options.function).
std::optional<PipelineResult> runPipeline(const ir::Module& parsed, const PipelineOptions& options);

// Runs `fn` on a thread with a stack large enough for the stages' recursion over the deepest
// expressions the frontend accepts.
void runWithLargeStack(const std::function<void()>& fn);

// The stage names, for --print-after.
const std::vector<std::string>& stageNames();

}  // namespace adjoint::driver
