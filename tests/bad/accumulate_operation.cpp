// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: accumulate_operation.cpp:10:17: error: this call of std::accumulate is not supported
// CHECK: note: call it without an operation (the sum, or the sum of products, is differentiated)
#include <functional>
#include <numeric>
#include <vector>
// A product through std::multiplies: an operation the algorithm has no derivative rule for.
double f(std::vector<double>& x) {
  while (std::accumulate(x.begin(), x.end(), 0.0) > 1) x[0] *= 0.5;
  return x[0] * std::accumulate(x.begin(), x.end(), 1.0, std::multiplies<double>());
}
