// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: rule_parameter_count.cpp:7:1: error: the rules of 'warp' take 3 parameters, but 'warp' takes 1
// CHECK: note: give a rule the function's parameters, and optionally one more, last, for the call's result
double warp(double x);

namespace adjoint::rules {
inline double warp_dx(double x, double y, double z) { return x * y * z; }
}  // namespace adjoint::rules

double f(double x) { return warp(x) * x; }
