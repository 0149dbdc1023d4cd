// The float64 reference build of kernels: force-included (-include adjoint/float64.h) into a
// CPU-execution build (ADJOINT_CPU_EXECUTION) of the user's kernels and their generated
// derivatives, it makes every `float` that follows a `double` and every single-precision math
// function or intrinsic its double-precision counterpart. The same code then computes in
// float64 what the GPU computes in float: the reference its results are compared with
// (KernelCheck::compare). Float literals (0.1f) keep their float values: they are what the
// code says.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "adjoint/cuda.h"
#include "adjoint/verify_kernel.h"

#define float double

#define acosf std::acos
#define acoshf std::acosh
#define asinf std::asin
#define asinhf std::asinh
#define atan2f std::atan2
#define atanf std::atan
#define atanhf std::atanh
#define cbrtf std::cbrt
#define ceilf std::ceil
#define copysignf std::copysign
#define cosf std::cos
#define coshf std::cosh
#define erfcf std::erfc
#define erff std::erf
#define exp2f std::exp2
#define expf std::exp
#define expm1f std::expm1
#define fabsf std::fabs
#define floorf std::floor
#define fmaf std::fma
#define fmaxf std::fmax
#define fminf std::fmin
#define fmodf std::fmod
#define hypotf std::hypot
#define log10f std::log10
#define log1pf std::log1p
#define log2f std::log2
#define logf std::log
#define powf std::pow
#define roundf std::round
#define rsqrtf rsqrt
#define sinf std::sin
#define sinhf std::sinh
#define sqrtf std::sqrt
#define tanf std::tan
#define tanhf std::tanh
#define truncf std::trunc

// The fast intrinsics: their exact counterparts.
#define __cosf std::cos
#define __expf std::exp
#define __fdividef(x, y) ((x) / (y))
#define __frcp_rn(x) (1.0 / (x))
#define __fsqrt_rn std::sqrt
#define __logf std::log
#define __powf std::pow
#define __saturatef(x) std::fmin(std::fmax((x), 0.0), 1.0)
#define __sinf std::sin
#define __tanf std::tan
