// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: algorithm_in_condition.cpp:12:10: error: this algorithm is evaluated in a loop's condition or step
// CHECK: note: compute it into a variable before, where it runs once
// CHECK: algorithm_in_condition.cpp:13:21: error: this call of std::accumulate is not supported
// CHECK: note: call it without an operation (the sum, or the sum of products, is differentiated)
#include <functional>
#include <numeric>
#include <vector>
// The sum's loop runs before the statement that uses it: not where the use runs again and again.
double f(std::vector<double>& x) {
  double s = 0;
  while (std::accumulate(x.begin(), x.end(), 0.0) > 1) x[0] *= 0.5;
  return s + x[0] * std::accumulate(x.begin(), x.end(), 1.0, std::multiplies<double>());
}
