// The CUDA runtime as the host side of generated kernels uses it: the real runtime, or, when
// ADJOINT_CPU_EXECUTION is defined, the CPU execution of kernels (adjoint/cuda_cpu.h) for tests
// on machines without a GPU. Generated headers include this, so plain C++ code can call the
// kernels' launchers.
#pragma once

#ifdef ADJOINT_CPU_EXECUTION
#include "adjoint/cuda_cpu.h"
#else
#include <cuda_runtime.h>
#endif
