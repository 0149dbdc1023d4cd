// libFuzzer target over the whole pipeline, from source text to generated code: parse the input
// as a C++ file (as a CUDA file, with the toolkit's headers, when it mentions __global__), then
// differentiate up to three of its functions in both modes. Any input must end in generated code
// or diagnostics, never in a crash, a sanitizer report or a hang.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ad/frontend/Frontend.h"
#include "driver/Pipeline.h"

namespace {

void differentiateAll(const std::string& text) {
  const std::string path =
      text.find("__global__") != std::string::npos ? "/adjoint-fuzz/input.cu" : "/adjoint-fuzz/input.cpp";
  auto module = adjoint::frontend::parse({path, text, {"-std=c++17"}, "", {}});
  if (!module) return;
  size_t tried = 0;
  for (const adjoint::ir::Function& f : module->functions) {
    if (tried++ == 3) break;
    for (auto mode : {adjoint::derive::Mode::Reverse, adjoint::derive::Mode::Forward}) {
      adjoint::driver::PipelineOptions options;
      options.sourcePath = path;
      options.function = f.name;
      options.mode = mode;
      options.emit.headerName = "input.grad.h";
      options.emit.command = "fuzz";
      adjoint::driver::runPipeline(*module, options);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  adjoint::driver::runWithLargeStack([&] { differentiateAll(text); });  // as the adjoint command does
  return 0;
}
