// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: reference_argument.cpp:13:10: error: 'split' is inlined (it assigns a variable through a reference), which cannot be done in a loop's condition or step
// CHECK: note: call it in a statement of its own, into a local
// A call that assigns a caller's variable through a reference is inlined before the statement
// that uses it, which in a loop's condition would run it once where the program runs it on every
// test. (Under ?:, && and || it runs where the forward calls it.)
static double split(double x, double& high) {
  high = x * x;
  return x - high;
}

double f(double x, double h) {
  while (split(x, h) > 0.5) x *= 0.5;
  return x * h;
}
