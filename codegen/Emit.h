// Code generation: the derivative functions as one self-contained C++ translation unit and a
// header declaring its entry points.
#pragma once

#include <string>
#include <vector>

#include "ad/ir/Function.h"

namespace adjoint::codegen {

struct Output {
  std::string source;
  std::string header;
};

struct EmitOptions {
  std::string headerName;  // as the source includes it: "model.grad.h" (empty: the source includes no header)
  std::string command;     // the command line that regenerates the output
  bool lineDirectives = false;
};

// `original`: the forward module as parsed (functions the derivatives call are copied from it);
// `derivatives`: entry point first, internal helpers after.
Output emit(const ir::Module& original, const std::vector<ir::Function>& derivatives, const EmitOptions& options);

}  // namespace adjoint::codegen
