// Every math function of the rule table, in std:: and C form, in double and float.
#include <cmath>
#include <math.h>

double trig(double x, double y) {
  return std::sin(x) * std::cos(y) + std::tan(x / 2) + std::asin(x / 3) + std::acos(y / 4) + std::atan(x * y) +
         std::atan2(y, x);
}
// VERIFY: trig

double hyperbolic(double x, double y) { return std::sinh(x) + std::cosh(y) * std::tanh(x - y); }
// VERIFY: hyperbolic

double exps_logs(double x, double y) {
  return std::exp(x) + std::exp2(y) + std::expm1(x * y) + std::log(x) + std::log2(y) + std::log10(x + y) +
         std::log1p(x * x);
}
// VERIFY: exps_logs

double powers(double x, double y) {
  return std::sqrt(x) + std::cbrt(y) + std::pow(x, y) + std::pow(x, 3) + std::pow(y, 2.5) + std::hypot(x, y);
}
// VERIFY: powers

double special(double x, double y) { return std::erf(x - y) + std::erfc(x * y) + std::fma(x, y, x * x); }
// VERIFY: special

double piecewise(double x, double y) {
  return std::fabs(x - y) + std::fmin(x, y) * 2 + std::fmax(x * x, y) + std::floor(x * 10) + std::ceil(y) +
         std::round(x) + std::trunc(y) + std::abs(y - 1.1) + std::max(x, y) - std::min(x, 0.9);
}
// VERIFY: piecewise

double c_forms(double x, double y) { return sin(x) * exp(y) + sqrt(x * y) + pow(x, y) + fabs(x - 2) + log(y); }
// VERIFY: c_forms

float float_forms(float x, float y) { return sinf(x) * expf(y) + sqrtf(x * y) + powf(x, y) + tanhf(x) + logf(y) + fmaxf(x, y); }
// VERIFY: float_forms

double inverse_hyperbolic(double x, double y) { return std::asinh(x - y) + std::acosh(x + 1.5) + std::atanh(y / 2); }
// VERIFY: inverse_hyperbolic

// Remainders are x - n y with n an integer constant between their jumps (at 1.5 / 0.4 and
// similar ratios the inputs stay clear of one).
double remainders(double x, double y) {
  return std::fmod(3 * x, y + 0.3) + std::remainder(x * 5, y) + std::fdim(x, y) + std::fdim(y, 2 * x) +
         std::copysign(x * y, y - 1);
}
// VERIFY: remainders

double scalings(double x, double y, int e) {
  return std::ldexp(x, e) + std::scalbn(y, 3) + std::rint(x * 4) + std::nearbyint(y) + std::lround(x) * y;
}
// VERIFY: scalings

float float_spellings(float x, float y) {
  return asinhf(x) + acoshf(y + 1) + atanhf(x / 2) + fmodf(x * 3, y) + remainderf(x, y / 3) + fdimf(x, y) +
         copysignf(x, -y) + ldexpf(y, 2);
}
// VERIFY: float_spellings

double builtins(double x, double y) { return __builtin_pow(x, y) + __builtin_sin(x) * __builtin_exp(y) + __builtin_fabs(x - y); }
// VERIFY: builtins

// Constants of <cmath>, kept by name in the generated code.
double named_constants(double t, double x) { return std::sin(2 * M_PI * t) * M_SQRT1_2 + std::exp(x * M_LN2) * M_1_PI; }
// VERIFY: named_constants

// The gamma function and its logarithm: their derivatives call the digamma function
// (adjoint_digamma, copied into the generated code), through its recurrence (x below 6), its
// asymptotic series (x from 6) and its reflection (x below 1/2: negative x between poles too).
double gammas(double x, double y) { return std::lgamma(x) * y + std::tgamma(0.5 * y) + lgamma(x * y + 6.5); }
// VERIFY: gammas lo=0.3 hi=4
// VERIFY: gammas lo=-0.9 hi=-0.1
float float_gammas(float x) { return lgammaf(x) + tgammaf(x) * x; }
// VERIFY: float_gammas lo=0.5 hi=3
