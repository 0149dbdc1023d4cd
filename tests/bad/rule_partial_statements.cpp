// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: rule_partial_statements.cpp:8:43: error: the comma operator is not supported in a derivative rule's partial
// CHECK: note: write the partial as one expression of the function's parameters
// A partial is one expression, used where the rule applies: nothing can run before it.
double warp(double x);

namespace adjoint::rules {
inline double warp_dx(double x) { return (x *= 2, x + 1); }
}  // namespace adjoint::rules

double f(double x) { return warp(x) * x; }
