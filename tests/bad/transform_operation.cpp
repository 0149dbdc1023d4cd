// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: transform_operation.cpp:19:49: error: this operation of std::transform is not supported
// CHECK: note: pass a lambda, a function, or a function object of <functional> (std::plus<double>())
// CHECK: transform_operation.cpp:20:49: error: 'bumped' as the operation of std::transform is not supported
// CHECK: note: an operation named takes the elements, by value or const reference
// A function object of the program's own as std::transform's operation: not followed yet (a
// lambda, a function and std::plus are); a function that does not take the elements.
#include <algorithm>
#include <vector>

struct Scale {
  double factor;
  double operator()(double t) const { return factor * t; }
};
static double bumped(double& t) { return t += 1; }

double f(const std::vector<double>& v) {
  std::vector<double> w(v.size());
  std::transform(v.begin(), v.end(), w.begin(), Scale{2.0});
  std::transform(w.begin(), w.end(), w.begin(), bumped);
  return w[0];
}
