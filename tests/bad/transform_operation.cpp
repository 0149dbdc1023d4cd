// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: transform_operation.cpp:20:49: error: this function object as the operation of std::transform is not supported
// CHECK: note: give the struct a const operator() taking the elements by value or const reference
// CHECK: transform_operation.cpp:21:49: error: 'bumped' as the operation of std::transform is not supported
// CHECK: note: an operation named takes the elements, by value or const reference
// Operations that do not take the elements as values: a function object whose operator() is not
// const (std::transform calls a copy of it), a function taking them by reference.
#include <algorithm>
#include <vector>

struct Counted {
  double factor;
  double operator()(double t) { return factor += t; }
};
static double bumped(double& t) { return t += 1; }

double f(const std::vector<double>& v) {
  std::vector<double> w(v.size());
  // (a line between, so that the checks above keep their line numbers)
  std::transform(v.begin(), v.end(), w.begin(), Counted{2.0});
  std::transform(w.begin(), w.end(), w.begin(), bumped);
  return w[0];
}
