// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: pointer_passed_on.cpp:10:50: error: a pointer can be indexed or dereferenced here, not passed on
// CHECK: note: pass the array itself (with the offset as another argument)
// A pointer into an array goes to a call as the array plus an offset; one chosen by ?: does not.
static double dot(const double* x, const double* y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}
double f(const double* a, int n) { return dot(a, n > 2 ? a + 1 : a, n - 1); }
