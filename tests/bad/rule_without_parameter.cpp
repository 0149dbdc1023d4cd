// ARGS: grad %s --fn f
// EXPECT: rule_without_parameter.cpp:7:1: error: 'warp_grad' in namespace adjoint::rules names no parameter after _d
// EXPECT: note: name a rule <function>_d<parameter>
double warp(double x);

namespace adjoint::rules {
inline double warp_grad(double x) { return 2 * x; }
}  // namespace adjoint::rules

double f(double x) { return warp(x) * x; }
