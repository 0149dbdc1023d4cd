// For a CPU-execution build of CUDA code (-I runtime/adjoint/cpu -DADJOINT_CPU_EXECUTION):
// <cuda_fp16.h> is the CPU execution's half (adjoint/storage16.h).
#pragma once

#include "adjoint/storage16.h"

using __half = adjoint::cpu::Stored16<adjoint::cpu::HalfFormat>;
using half = __half;

inline float __half2float(__half v) { return v; }
inline __half __float2half(float v) { return v; }
inline __half __float2half_rn(float v) { return v; }
