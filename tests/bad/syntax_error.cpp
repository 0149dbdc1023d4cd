// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: syntax_error.cpp:5:15: error: expected ';' after return statement
double f(double x) {
  double y = x * 2;
  return y * x
}
