// Custom derivatives (namespace adjoint::rules) and nondifferentiable marks.
#include <cmath>

#include "adjoint/annotations.h"

// A function whose body Adjoint cannot see (defined below the rules, after the marker the tool
// never reads: it lives in the test's own translation unit).
double softclip(double x);
float softclipf(float x);  // softclip in float: the rules declare it another name of softclip
// A function whose body Adjoint could differentiate, but whose rule is simpler.
double logistic(double x) { return 1 / (1 + std::exp(-x)); }
ADJOINT_NONDIFFERENTIABLE double sample_noise(double t);

namespace adjoint::rules {
// d/dx softclip(x) = 1 - tanh^2 x
inline double softclip_dx(double x) { return 1 - std::tanh(x) * std::tanh(x); }
// d/dx logistic(x) = logistic(x) (1 - logistic(x))
inline double logistic_dx(double x) { return logistic(x) * (1 - logistic(x)); }
inline constexpr const char* softclip_aliases[] = {"softclipf"};
}  // namespace adjoint::rules

double uses_custom(double x, double y) { return softclip(x * y) + logistic(x) * y; }
// VERIFY: uses_custom

float uses_alias(float x, float y) { return softclipf(x * y) * y + std::exp(x) * expf(y); }
// VERIFY: uses_alias

double with_noise(double x, double t) { return x * x + t * sample_noise(x); }
// VERIFY: with_noise

// A constant helper marked by the user: its result does not depend on the inputs for Adjoint.
ADJOINT_NONDIFFERENTIABLE double step_size(double x) { return x > 1 ? 0.1 : 0.2; }

double marked(double x, ADJOINT_NONDIFFERENTIABLE double scale) { return std::sin(x) * scale + step_size(x); }
// VERIFY: marked wrt=x

double softclip(double x) { return std::tanh(x); }
float softclipf(float x) { return std::tanh(x); }
double sample_noise(double) { return 0; }
