// For a CPU-execution build of CUDA code (-I runtime/adjoint/cpu -DADJOINT_CPU_EXECUTION): <cublas_v2.h>
// is the CPU stand-in of cuBLAS.
#pragma once

#include "adjoint/cublas_cpu.h"
