// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: bad_rule.cpp:7:1: error: the derivative rule 'warp_dx' must be a single return statement
// CHECK: note: write the partial derivative as one expression
double warp(double x);

namespace adjoint::rules {
inline double warp_dx(double x) {
  double t = x * 2;
  return t;
}
}  // namespace adjoint::rules

double f(double x) { return warp(x) * x; }
