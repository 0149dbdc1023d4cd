// For a CPU-execution build of CUDA code (-I runtime/adjoint/cpu -DADJOINT_CPU_EXECUTION):
// <cuda_fp16.h> is the CPU execution's half (adjoint/storage16.h).
#pragma once

#include "adjoint/cuda_cpu.h"
#include "adjoint/storage16.h"

using __half = adjoint::cpu::Stored16<adjoint::cpu::HalfFormat>;
using half = __half;

inline float __half2float(__half v) { return v; }
inline __half __float2half(float v) { return v; }
inline __half __float2half_rn(float v) { return v; }

// Pairs: made from floats (rounded) or from two values, read widened.
using __half2 = adjoint::cpu::Pair16<adjoint::cpu::HalfFormat>;
inline __half2 __floats2half2_rn(float a, float b) { return {a, b}; }
inline __half2 __float2half2_rn(float a) { return {a, a}; }
inline __half2 __float22half2_rn(float2 v) { return {v.x, v.y}; }
inline __half2 __halves2half2(__half a, __half b) { return {a, b}; }
inline __half2 make_half2(__half a, __half b) { return {a, b}; }
inline float2 __half22float2(__half2 v) { return make_float2(v.x, v.y); }
inline float __low2float(__half2 v) { return v.x; }
inline float __high2float(__half2 v) { return v.y; }
inline __half __low2half(__half2 v) { return v.x; }
inline __half __high2half(__half2 v) { return v.y; }
