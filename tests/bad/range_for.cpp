// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: range_for.cpp:7:3: error: a range-based for loop is not supported in a differentiated function
#include <vector>

double f(double x, int n) {
  double s = 0;
  for (int k : {1, 2, 3}) s += k * x * n;
  return s;
}
