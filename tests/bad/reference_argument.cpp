// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: reference_argument.cpp:10:12: error: passing a variable by reference to 'split' is not supported
// CHECK: note: return the value from the function instead
// A reference parameter of f is an output; a local passed by reference to a callee that writes
// it is not followed yet.
void split(double x, double& high) { high = x * x; }

double f(double x) {
  double h = 0;
  split(x, h);
  return h + x;
}
