// `adjoint check`: generates both derivatives of a function, a verification harness around
// runtime/adjoint/verify.h, builds the harness with the C++ compiler and runs it: finite
// differences and the dot-product test on reproducible random inputs, with a table of each
// differentiated parameter's errors. Or, with `emitHarness`, writes the harness source only.
// A kernel is checked through its launchers (runtime/adjoint/verify_kernel.h) on the CPU
// execution of kernels, or with `gpu` on the GPU; host code over kernels and cuBLAS through f_vjp
// and f_jvp the same way; with the pipeline's `train` set, the training step against its unfused
// reference (runtime/adjoint/verify_train.h).
#pragma once

#include <string>
#include <vector>

#include "driver/Pipeline.h"

namespace adjoint::driver {

struct CheckOptions {
  PipelineOptions pipeline;  // source, function, --wrt, compiler flags
  unsigned seed = 12345;
  std::vector<long> intValues;  // values of the integer parameters (default: 6 each)
  size_t arrayLength = 64;
  unsigned block = 64;      // kernels: threads per block
  unsigned grid = 0;        // kernels: blocks (0: enough for one thread per array element)
  bool gpu = false;         // kernels: build with nvcc and run on the GPU instead of the CPU execution
  std::string emitHarness;  // write the harness here instead of building and running it
  bool keep = false;        // keep the build directory
  // --range: "lo,hi" for every floating input, "name=lo,hi" for one parameter.
  std::vector<std::string> ranges;
};

// The process exit status: 0 when every check passed.
int runCheck(const CheckOptions& options);

}  // namespace adjoint::driver
