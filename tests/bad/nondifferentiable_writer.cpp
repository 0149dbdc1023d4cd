// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// A function marked nondifferentiable is called as it is: what it stores would be hidden from the
// reverse sweep, which reads y as the loop before the call left it.
// CHECK: nondifferentiable_writer.cpp:[[@LINE+9]]:3: error: 'clamp_all' is marked nondifferentiable, but it writes into its array parameter 'y'
// CHECK: note: let Adjoint differentiate it
#include "adjoint/annotations.h"
ADJOINT_NONDIFFERENTIABLE void clamp_all(double* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = y[i] > 1.0 ? 1.0 : y[i];
}
double f(const double* x, double* y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += y[i] * y[i] * x[i];
  clamp_all(y, n);
  for (int i = 0; i < n; ++i) s += y[i] * x[i];
  return s;
}
