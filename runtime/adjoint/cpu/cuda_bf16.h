// For a CPU-execution build of CUDA code (-I runtime/adjoint/cpu -DADJOINT_CPU_EXECUTION):
// <cuda_bf16.h> is the CPU execution's bfloat16 (adjoint/storage16.h).
#pragma once

#include "adjoint/cuda_cpu.h"
#include "adjoint/storage16.h"

using __nv_bfloat16 = adjoint::cpu::Stored16<adjoint::cpu::BFloat16Format>;
using nv_bfloat16 = __nv_bfloat16;

inline float __bfloat162float(__nv_bfloat16 v) { return v; }
inline __nv_bfloat16 __float2bfloat16(float v) { return v; }
inline __nv_bfloat16 __float2bfloat16_rn(float v) { return v; }

// Pairs: made from floats (rounded) or from two values, read widened.
using __nv_bfloat162 = adjoint::cpu::Pair16<adjoint::cpu::BFloat16Format>;
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return {a, b}; }
inline __nv_bfloat162 __float2bfloat162_rn(float a) { return {a, a}; }
inline __nv_bfloat162 __float22bfloat162_rn(float2 v) { return {v.x, v.y}; }
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return {a, b}; }
inline __nv_bfloat162 make_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return {a, b}; }
inline float2 __bfloat1622float2(__nv_bfloat162 v) { return make_float2(v.x, v.y); }
inline float __low2float(__nv_bfloat162 v) { return v.x; }
inline float __high2float(__nv_bfloat162 v) { return v.y; }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 v) { return v.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 v) { return v.y; }
