// For a CPU-execution build of CUDA code (-I runtime/adjoint/cpu -DADJOINT_CPU_EXECUTION): <cuda_runtime.h>
// is the CPU execution of kernels.
#pragma once

#include "adjoint/cuda_cpu.h"
