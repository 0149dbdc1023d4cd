// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: variadic_function.cpp:6:1: error: variadic function 'sum' cannot be differentiated
// CHECK: note: give the function a fixed list of parameters
#include <cstdarg>

double sum(int n, ...) {
  va_list args;
  va_start(args, n);
  double s = 0;
  for (int i = 0; i < n; ++i) s += va_arg(args, double);
  va_end(args);
  return s;
}
double f(double x, double y) { return sum(2, x, y) * x; }
