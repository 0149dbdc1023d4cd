// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: reference_argument.cpp:12:18: error: 'split' is inlined (it assigns a variable through a reference), which cannot be done in a loop's condition or step, or under ?:, && or ||
// CHECK: note: call it in a statement of its own, into a local
// A call that assigns a caller's variable through a reference is inlined before the statement
// that uses it, which under ?: would run it where the program does not.
static double split(double x, double& high) {
  high = x * x;
  return x - high;
}

double f(double x, double h) {
  return x > 1 ? split(x, h) * h : x;
}
