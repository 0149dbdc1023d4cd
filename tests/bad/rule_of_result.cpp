// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: rule_of_result.cpp:8:1: error: 'y' is the result of 'squash', not one of its parameters: 'squash_dy' is no partial derivative
// CHECK: note: differentiate with respect to the function's own parameters
double squash(double x);

namespace adjoint::rules {
// d/dx squash(x) = 1 - y^2  (y = squash(x))
inline double squash_dy([[maybe_unused]] double x, [[maybe_unused]] double y) { return 0; }
inline double squash_dx([[maybe_unused]] double x, double y) { return 1 - y * y; }
}  // namespace adjoint::rules

double f(double x) { return squash(x) * x; }
