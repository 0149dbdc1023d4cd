// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: rule_without_parameter.cpp:7:1: error: 'warp_grad' in namespace adjoint::rules names no parameter after _d
// CHECK: note: name a rule <function>_d<parameter>
double warp(double x);

namespace adjoint::rules {
inline double warp_grad(double x) { return 2 * x; }
}  // namespace adjoint::rules

double f(double x) { return warp(x) * x; }
