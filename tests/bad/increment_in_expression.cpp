// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: increment_in_expression.cpp:8:12: error: ++ and -- inside an expression are not supported
// CHECK: note: write the increment as a statement of its own
double f(const double* x, int n) {
  double s = 0;
  int i = 0;
  while (i < n)
    s += x[i++];
  return s;
}
