// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: range_for_list.cpp:8:16: error: a range-based for over this range is not supported
// CHECK: note: loop over a std::vector, a std::array or an array variable, or count with an index
// A braced list is a std::initializer_list, not one of the ranges Adjoint indexes.
#include <initializer_list>
double f(double x, int n) {
  double s = 0;
  for (int k : {1, 2, 3}) s += k * x * n;
  return s;
}
