// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: rule_missing_partial.cpp:9:3: error: no derivative of 'blend' with respect to argument 2
double blend(double x, double y);
namespace adjoint::rules {
inline double blend_dx(double x, double y) { return y; }
}  // namespace adjoint::rules
double f(double a, double b) {
  double s = a * 2;
  s += blend(a, b);
  return s;
}
