// RUN: rm -rf %t && mkdir %t && not %adjoint jvp %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: vector_in_loop.cpp:9:5: error: a std::vector declared inside a loop or branch is not supported
// CHECK: note: declare it at the start of the function, sized for every use
#include <vector>
// Its adjoint is declared where the reverse sweep starts, as long as the vector.
double f(const std::vector<double>& x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    std::vector<double> t(2, x[i]);
    s += t[0] * t[1];
  }
  return s;
}
