// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: vector_push_back.cpp:9:3: error: this std::vector local is not supported
// CHECK: vector_push_back.cpp:11:5: error: 'push_back' on a std::vector is not supported here
// CHECK: note: differentiated code reads and writes the elements of containers it is given (x[i], x.at(i), x.size()); size them before the call
#include <vector>
// A vector that grows: its adjoint would have to grow with it.
double f(const std::vector<double>& x) {
  double s = 0;
  std::vector<double> squares;
  for (double v : x)
    squares.push_back(v * v);
  for (double q : squares) s += q;
  return s;
}
