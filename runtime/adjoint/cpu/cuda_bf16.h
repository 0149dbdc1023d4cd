// For a CPU-execution build of CUDA code (-I runtime/adjoint/cpu -DADJOINT_CPU_EXECUTION):
// <cuda_bf16.h> is the CPU execution's bfloat16 (adjoint/storage16.h).
#pragma once

#include "adjoint/storage16.h"

using __nv_bfloat16 = adjoint::cpu::Stored16<adjoint::cpu::BFloat16Format>;
using nv_bfloat16 = __nv_bfloat16;

inline float __bfloat162float(__nv_bfloat16 v) { return v; }
inline __nv_bfloat16 __float2bfloat16(float v) { return v; }
inline __nv_bfloat16 __float2bfloat16_rn(float v) { return v; }
