// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: pointer_from_call.cpp:6:21: error: pointer 'p' must be initialized to point into a pointer parameter or a local array
// CHECK: note: index a pointer parameter or a local array
static const double* pick(const double* a, const double* b, int k) { return k > 0 ? a : b; }
double f(const double* a, const double* b, int k) {
  const double* p = pick(a, b, k);
  return p[0] * p[0];
}
