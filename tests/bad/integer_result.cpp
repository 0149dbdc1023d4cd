// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn count_above -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: integer_result.cpp:4:5: error: 'count_above' returns 'int' and writes no array, so it has no derivative
// CHECK: note: differentiate a function that returns float or double, or writes its results through pointers
int count_above(const double* x, int n, double threshold) {
  int k = 0;
  for (int i = 0; i < n; ++i)
    if (x[i] > threshold) k += 1;
  return k;
}
