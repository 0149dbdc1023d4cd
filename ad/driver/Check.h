// `adjoint check`: generates both derivatives of a function, a verification harness around
// runtime/adjoint/verify.h, builds the harness with the C++ compiler and runs it: finite
// differences and the dot-product test on reproducible random inputs, with a table of each
// differentiated parameter's errors. Or, with `emitHarness`, writes the harness source only.
#pragma once

#include <string>
#include <vector>

#include "ad/driver/Pipeline.h"

namespace adjoint::driver {

struct CheckOptions {
  PipelineOptions pipeline;    // source, function, --wrt, compiler flags
  unsigned seed = 12345;
  std::vector<long> intValues;  // values of the integer parameters (default: 6 each)
  size_t arrayLength = 64;
  std::string emitHarness;  // write the harness here instead of building and running it
  bool keep = false;        // keep the build directory
};

// The process exit status: 0 when every check passed.
int runCheck(const CheckOptions& options);

}  // namespace adjoint::driver
