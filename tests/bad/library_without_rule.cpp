// ARGS: grad %s --fn f -- -std=c++17
// EXPECT: library_without_rule.cpp:6:51: error: 'std::clamp' comes from a system header and has no derivative rule
// EXPECT: note: Adjoint differentiates the math library through its rules
#include <algorithm>

double f(double x, double lo, double hi) { return std::clamp(x, lo, hi) * x; }
