// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: for_condition_variable.cpp:6:19: error: a variable declared in a for condition is not supported
// CHECK: note: declare it before the loop, or in the loop body
double f(const double* x, int n) {
  double s = 0;
  for (int i = 0; int left = n - i; ++i) s += x[i] * left;
  return s;
}
