// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: pointer_changes_array.cpp:7:14: error: pointer 'p' must keep pointing into 'a'
// CHECK: note: move a pointer with =, += and -= within the array it was initialized to point into
double f(const double* a, const double* b, int n) {
  const double* p = a;
  double s = p[0];
  if (n > 2) p = b + 1;
  return s + p[0] * p[1];
}
