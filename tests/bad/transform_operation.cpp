// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: transform_operation.cpp:12:49: error: this operation of std::transform is not supported
// CHECK: note: pass a lambda, or a function object of <functional> (std::plus<double>())
// A function passed by name to std::transform: not followed yet (a lambda is).
#include <algorithm>
#include <vector>

static double square(double t) { return t * t; }

double f(const std::vector<double>& v) {
  std::vector<double> w(v.size());
  std::transform(v.begin(), v.end(), w.begin(), square);
  return w[0];
}
