// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn trace -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: array_of_arrays_parameter.cpp:8:14: error: type 'const double[][3]' is not supported
// CHECK: note: pass a pointer to the first element (const double* a) and index it a[i * N + j]
// CHECK: array_of_arrays_parameter.cpp:10:36: error: a pointer to arrays ('const double (*)[3]') is not supported
// A parameter that is an array of arrays: not yet (its generated signature must keep the
// caller's type; a local array of arrays is one array, row after row).

double trace(const double a[][3], int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i][i];
  return s;
}
