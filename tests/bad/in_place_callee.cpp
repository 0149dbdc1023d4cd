// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: in_place_callee.cpp:4:6: error: 'scale' both reads and writes its array parameter 'v'
// CHECK: note: write the results to a separate output array
void scale(double* v, int n, double a) {
  for (int i = 0; i < n; ++i) v[i] *= a;
}
double f(double* v, int n, double a) {
  scale(v, n, a);
  return v[0] + v[1];
}
