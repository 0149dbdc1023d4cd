// Adjoint's built-in derivative rules, in the form a user writes a custom one.
//
// A rule is a function in namespace adjoint::rules named <function>_d<parameter>, taking the same
// parameters as <function> and returning the partial derivative of <function> with respect to
// <parameter>, as one return statement. Reverse mode multiplies it by the adjoint of the call
// (x_bar += f_bar * f_dx(x)); forward mode by the tangent (f_dot += f_dx(x) * x_dot). A rule may
// take one parameter more, last: the call's result (tanh_dx(x, y) = 1 - y * y). Generated code then
// reads the variable the forward stored the result in (h = tanh(u): u_bar += h_bar * (1 - h * h))
// where it still holds it, and evaluates the call again elsewhere. Rules are
// inlined into the generated code; a function with rules needs no body, and rules for a function
// that has one replace differentiating its body. Floating literals take the type of the call.
// Rules also declare the function pure: its value depends on its arguments alone, so generated
// code evaluates it again where the reverse sweep needs it, and computes repeated calls once.
// Other names of a function (its float version) are declared as <function>_aliases, below.
//
// Adjoint reads this header before every input; user rules live in the input (or a header it
// includes) and look the same:
//
//   namespace adjoint::rules {
//   // d/dx softclip(x) = 1 - tanh^2 x
//   inline double softclip_dx(double x) { return 1 - std::tanh(x) * std::tanh(x); }
//   }
#pragma once

#include <cmath>

#include "adjoint/annotations.h"

namespace adjoint {

#if defined(__CUDA__)
#define ADJOINT_RULE_HELPER __host__ __device__
#else
#define ADJOINT_RULE_HELPER
#endif

// The digamma function psi(x) = d/dx ln Gamma(x), which the rules of lgamma and tgamma call (the
// generated code gets a copy where it needs one). Below 1/2 the reflection
// psi(x) = psi(1 - x) - pi / tan(pi x); up to 6 the recurrence psi(x) = psi(x + 1) - 1 / x; from
// there the asymptotic series psi(x) ~ ln x - 1/(2x) - sum B_2k / (2k x^2k), to x^-10 (its next
// term is below 1e-11 for x >= 6).
ADJOINT_NONDIFFERENTIABLE ADJOINT_RULE_HELPER inline double adjoint_digamma(double x) {
  double shift = 0;
  if (x < 0.5) {
    shift = -M_PI / std::tan(M_PI * x);
    x = 1 - x;
  }
  while (x < 6) {
    shift -= 1 / x;
    x += 1;
  }
  double r = 1 / (x * x);
  return shift + std::log(x) - 0.5 / x -
         r * (1.0 / 12 - r * (1.0 / 120 - r * (1.0 / 252 - r * (1.0 / 240 - r * (1.0 / 132)))));
}

}  // namespace adjoint

namespace adjoint::rules {

// d/dx sin x = cos x
inline double sin_dx(double x) { return std::cos(x); }
// d/dx cos x = -sin x
inline double cos_dx(double x) { return -std::sin(x); }
// d/dx tan x = 1 / cos^2 x
inline double tan_dx(double x) { return 1 / (std::cos(x) * std::cos(x)); }
// d/dx asin x = 1 / sqrt(1 - x^2)
inline double asin_dx(double x) { return 1 / std::sqrt(1 - x * x); }
// d/dx acos x = -1 / sqrt(1 - x^2)
inline double acos_dx(double x) { return -1 / std::sqrt(1 - x * x); }
// d/dx atan x = 1 / (1 + x^2)
inline double atan_dx(double x) { return 1 / (1 + x * x); }
// d/dy atan2(y, x) = x / (x^2 + y^2)
inline double atan2_dy(double y, double x) { return x / (x * x + y * y); }
// d/dx atan2(y, x) = -y / (x^2 + y^2)
inline double atan2_dx(double y, double x) { return -y / (x * x + y * y); }
// d/dx asinh x = 1 / sqrt(x^2 + 1)
inline double asinh_dx(double x) { return 1 / std::sqrt(x * x + 1); }
// d/dx acosh x = 1 / sqrt(x^2 - 1)  (x > 1)
inline double acosh_dx(double x) { return 1 / std::sqrt(x * x - 1); }
// d/dx atanh x = 1 / (1 - x^2)
inline double atanh_dx(double x) { return 1 / (1 - x * x); }
// d/dx sinh x = cosh x
inline double sinh_dx(double x) { return std::cosh(x); }
// d/dx cosh x = sinh x
inline double cosh_dx(double x) { return std::sinh(x); }
// d/dx tanh x = 1 - tanh^2 x = 1 - y^2  (y = tanh x)
inline double tanh_dx([[maybe_unused]] double x, double y) { return 1 - y * y; }
// d/dx e^x = e^x = y  (y = e^x)
inline double exp_dx([[maybe_unused]] double x, double y) { return y; }
// d/dx 2^x = 2^x ln 2 = y ln 2  (y = 2^x)
inline double exp2_dx([[maybe_unused]] double x, double y) { return y * M_LN2; }
// d/dx (e^x - 1) = e^x = y + 1  (y = e^x - 1)
inline double expm1_dx([[maybe_unused]] double x, double y) { return y + 1; }
// d/dx ln x = 1 / x
inline double log_dx(double x) { return 1 / x; }
// d/dx log2 x = 1 / (x ln 2)
inline double log2_dx(double x) { return 1 / (x * M_LN2); }
// d/dx log10 x = 1 / (x ln 10)
inline double log10_dx(double x) { return 1 / (x * M_LN10); }
// d/dx ln(1 + x) = 1 / (1 + x)
inline double log1p_dx(double x) { return 1 / (1 + x); }
// d/dx sqrt x = 1 / (2 sqrt x) = 1 / (2 y)  (y = sqrt x)
inline double sqrt_dx([[maybe_unused]] double x, double y) { return 1 / (2 * y); }
// d/dx cbrt x = 1 / (3 cbrt^2 x) = 1 / (3 y^2)  (y = cbrt x)
inline double cbrt_dx([[maybe_unused]] double x, double y) { return 1 / (3 * y * y); }
// d/dx x^y = y x^(y - 1)
inline double pow_dx(double x, double y) { return y * std::pow(x, y - 1); }
// d/dy x^y = x^y ln x
inline double pow_dy(double x, double y) { return std::pow(x, y) * std::log(x); }
// d/dx hypot(x, y) = x / hypot(x, y) = x / h  (h = hypot(x, y))
inline double hypot_dx(double x, [[maybe_unused]] double y, double h) { return x / h; }
// d/dy hypot(x, y) = y / hypot(x, y) = y / h
inline double hypot_dy([[maybe_unused]] double x, double y, double h) { return y / h; }
// d/dx erf x = 2/sqrt(pi) e^(-x^2)
inline double erf_dx(double x) { return M_2_SQRTPI * std::exp(-x * x); }
// d/dx erfc x = -2/sqrt(pi) e^(-x^2)
inline double erfc_dx(double x) { return -M_2_SQRTPI * std::exp(-x * x); }
// d/dx ln |Gamma(x)| = psi(x), the digamma function
inline double lgamma_dx(double x) { return adjoint_digamma(x); }
// d/dx Gamma(x) = Gamma(x) psi(x) = y psi(x)  (y = tgamma(x))
inline double tgamma_dx(double x, double y) { return y * adjoint_digamma(x); }
// d/dx |x| = sign x  (+1 at 0: a subgradient)
inline double fabs_dx(double x) { return x < 0 ? -1 : 1; }
// d/dx fmin(x, y) = [x < y] = [r < y]  (r = fmin(x, y); at a tie, y's: as PyTorch's relu, 0 at 0)
// Read from the result, the derivative needs no x: an in-place clamp h[i] = fmin(h[i], c) has its
// reverse from h as the forward leaves it (derive/HostVersions.cpp), with no copy of the old h.
inline double fmin_dx([[maybe_unused]] double x, double y, double r) { return r < y ? 1 : 0; }
// d/dy fmin(x, y) = [x >= y] = [r >= y]
inline double fmin_dy([[maybe_unused]] double x, double y, double r) { return r < y ? 0 : 1; }
// d/dx fmax(x, y) = [x > y] = [r > y]  (r = fmax(x, y); relu's fmax(u, 0): [r > 0], from its output)
inline double fmax_dx([[maybe_unused]] double x, double y, double r) { return r > y ? 1 : 0; }
// d/dy fmax(x, y) = [x <= y] = [r <= y]
inline double fmax_dy([[maybe_unused]] double x, double y, double r) { return r > y ? 0 : 1; }
// d/dx fma(x, y, z) = y
inline double fma_dx([[maybe_unused]] double x, double y, [[maybe_unused]] double z) { return y; }
// d/dy fma(x, y, z) = x
inline double fma_dy(double x, [[maybe_unused]] double y, [[maybe_unused]] double z) { return x; }
// d/dz fma(x, y, z) = 1
inline double fma_dz([[maybe_unused]] double x, [[maybe_unused]] double y, [[maybe_unused]] double z) { return 1; }
// fmod(x, y) = x - n y with n = trunc(x / y), an integer constant between its jumps:
// d/dx = 1, d/dy = -n (n recovered exactly from the result)
inline double fmod_dx([[maybe_unused]] double x, [[maybe_unused]] double y) { return 1; }
inline double fmod_dy(double x, double y) { return -std::round((x - std::fmod(x, y)) / y); }
// remainder(x, y) = x - n y with n = x / y rounded to the nearest integer: d/dx = 1, d/dy = -n
inline double remainder_dx([[maybe_unused]] double x, [[maybe_unused]] double y) { return 1; }
inline double remainder_dy(double x, double y) { return -std::round((x - std::remainder(x, y)) / y); }
// fdim(x, y) = max(x - y, 0): d/dx = [x > y], d/dy = -[x > y]
inline double fdim_dx(double x, double y) { return x > y ? 1 : 0; }
inline double fdim_dy(double x, double y) { return x > y ? -1 : 0; }
// copysign(x, y) = |x| sign y: d/dx = sign x sign y, d/dy = 0 (piecewise constant in y)
inline double copysign_dx(double x, double y) { return std::copysign(1.0, x) * std::copysign(1.0, y); }
inline double copysign_dy([[maybe_unused]] double x, [[maybe_unused]] double y) { return 0; }
// ldexp(x, e) = scalbn(x, e) = x 2^e: d/dx = 2^e (e is an integer)
inline double ldexp_dx([[maybe_unused]] double x, int e) { return std::ldexp(1.0, e); }
inline double scalbn_dx([[maybe_unused]] double x, int e) { return std::scalbn(1.0, e); }
// floor, ceil, round, trunc, rint and nearbyint are piecewise constant: derivative 0 wherever it exists.
inline double floor_dx([[maybe_unused]] double x) { return 0; }
inline double ceil_dx([[maybe_unused]] double x) { return 0; }
inline double round_dx([[maybe_unused]] double x) { return 0; }
inline double trunc_dx([[maybe_unused]] double x) { return 0; }
inline double rint_dx([[maybe_unused]] double x) { return 0; }
inline double nearbyint_dx([[maybe_unused]] double x) { return 0; }

// The float versions of the functions above (sinf, expf, ...) are the same functions under other
// names, differentiated by the same rules: <function>_aliases lists them. (std::sin and
// __builtin_sin are sin.) A user's function with rules can declare its other names the same way.
inline constexpr const char* acos_aliases[] = {"acosf"};
inline constexpr const char* acosh_aliases[] = {"acoshf"};
inline constexpr const char* asin_aliases[] = {"asinf"};
inline constexpr const char* asinh_aliases[] = {"asinhf"};
inline constexpr const char* atan_aliases[] = {"atanf"};
inline constexpr const char* atan2_aliases[] = {"atan2f"};
inline constexpr const char* atanh_aliases[] = {"atanhf"};
inline constexpr const char* cbrt_aliases[] = {"cbrtf"};
inline constexpr const char* ceil_aliases[] = {"ceilf"};
inline constexpr const char* copysign_aliases[] = {"copysignf"};
inline constexpr const char* cos_aliases[] = {"cosf"};
inline constexpr const char* cosh_aliases[] = {"coshf"};
inline constexpr const char* erf_aliases[] = {"erff"};
inline constexpr const char* erfc_aliases[] = {"erfcf"};
inline constexpr const char* exp_aliases[] = {"expf"};
inline constexpr const char* exp2_aliases[] = {"exp2f"};
inline constexpr const char* expm1_aliases[] = {"expm1f"};
inline constexpr const char* fabs_aliases[] = {"fabsf"};
inline constexpr const char* fdim_aliases[] = {"fdimf"};
inline constexpr const char* floor_aliases[] = {"floorf"};
inline constexpr const char* fma_aliases[] = {"fmaf"};
inline constexpr const char* fmax_aliases[] = {"fmaxf"};
inline constexpr const char* fmin_aliases[] = {"fminf"};
inline constexpr const char* fmod_aliases[] = {"fmodf"};
inline constexpr const char* hypot_aliases[] = {"hypotf"};
inline constexpr const char* ldexp_aliases[] = {"ldexpf"};
inline constexpr const char* lgamma_aliases[] = {"lgammaf"};
inline constexpr const char* log_aliases[] = {"logf"};
inline constexpr const char* log10_aliases[] = {"log10f"};
inline constexpr const char* log1p_aliases[] = {"log1pf"};
inline constexpr const char* log2_aliases[] = {"log2f"};
inline constexpr const char* nearbyint_aliases[] = {"nearbyintf"};
inline constexpr const char* pow_aliases[] = {"powf"};
inline constexpr const char* remainder_aliases[] = {"remainderf"};
inline constexpr const char* rint_aliases[] = {"rintf"};
inline constexpr const char* round_aliases[] = {"roundf"};
inline constexpr const char* scalbn_aliases[] = {"scalbnf"};
inline constexpr const char* sin_aliases[] = {"sinf"};
inline constexpr const char* sinh_aliases[] = {"sinhf"};
inline constexpr const char* sqrt_aliases[] = {"sqrtf"};
inline constexpr const char* tan_aliases[] = {"tanf"};
inline constexpr const char* tgamma_aliases[] = {"tgammaf"};
inline constexpr const char* tanh_aliases[] = {"tanhf"};
inline constexpr const char* trunc_aliases[] = {"truncf"};

}  // namespace adjoint::rules

// CUDA's intrinsics and device-only math (parsed only for CUDA sources). The fast
// approximations get the derivative of the function they approximate, evaluated with the same
// intrinsics.
namespace adjoint::rules {

// A linear rule: `<function>_linear = {k, "pullback"}` says the function is linear in its
// argument k, and that the argument's adjoint is `pullback` called with the function's arguments
// and the adjoint of its result in argument k's place. Its tangent is the function of the
// argument's tangent. Such a function moves values (between the lanes of a warp): it is not pure,
// and generated code calls it only where the forward did.
struct LinearRule {
  int argument;
  const char* pullback;
};

}  // namespace adjoint::rules

#ifdef __CUDA__
namespace adjoint::rules {

// Warp shuffles move the value v (argument 1) between the lanes of a warp; their pullbacks
// (adjoint/cuda.h) move each lane's adjoint back to the lane its value came from.
inline constexpr LinearRule __shfl_sync_linear = {1, "adjoint::shfl_sync_adjoint"};
inline constexpr LinearRule __shfl_xor_sync_linear = {1, "adjoint::shfl_xor_sync_adjoint"};
inline constexpr LinearRule __shfl_down_sync_linear = {1, "adjoint::shfl_down_sync_adjoint"};
inline constexpr LinearRule __shfl_up_sync_linear = {1, "adjoint::shfl_up_sync_adjoint"};

// d/dx __expf x = __expf x = y  (y = __expf x)
__host__ __device__ inline float __expf_dx([[maybe_unused]] float x, float y) { return y; }
// d/dx __logf x = 1 / x
__host__ __device__ inline float __logf_dx(float x) { return 1 / x; }
// d/dx __sinf x = __cosf x
__host__ __device__ inline float __sinf_dx(float x) { return __cosf(x); }
// d/dx __cosf x = -__sinf x
__host__ __device__ inline float __cosf_dx(float x) { return -__sinf(x); }
// d/dx __powf(x, y) = y __powf(x, y - 1)
__host__ __device__ inline float __powf_dx(float x, float y) { return y * __powf(x, y - 1); }
// d/dy __powf(x, y) = __powf(x, y) __logf x
__host__ __device__ inline float __powf_dy(float x, float y) { return __powf(x, y) * __logf(x); }
// d/dx __fdividef(x, y) = 1 / y
__host__ __device__ inline float __fdividef_dx([[maybe_unused]] float x, float y) { return __fdividef(1, y); }
// d/dy __fdividef(x, y) = -x / y^2
__host__ __device__ inline float __fdividef_dy(float x, float y) { return -__fdividef(x, y * y); }
// d/dx rsqrt x = d/dx x^(-1/2) = -x^(-3/2) / 2 = -y^3 / 2  (y = rsqrt x)
__host__ __device__ inline double rsqrt_dx([[maybe_unused]] double x, double y) { return -0.5 * y * y * y; }
// d/dx rsqrtf x = -y^3 / 2  (y = rsqrtf x)
__host__ __device__ inline float rsqrtf_dx([[maybe_unused]] float x, float y) { return -0.5f * y * y * y; }

}  // namespace adjoint::rules
#endif
