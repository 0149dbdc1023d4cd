// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: vector_grows_parameter.cpp:13:3: error: 'push_back' on a std::vector that is not a local variable is not supported
// CHECK: note: grow a local std::vector and copy it into the caller's
// CHECK: vector_grows_parameter.cpp:14:3: error: 'resize' on a std::vector is not supported here
// Growing the caller's vector would change a buffer the gradient must leave as it received it, and
// the caller's adjoint could not follow its size; resize is not followed by the reverse sweep.
#include <vector>

void f(std::vector<double>& out, const std::vector<double>& x) {
  std::vector<double> scratch;
  for (double v : x) scratch.push_back(v * v);
  out[0] = scratch[0];
  out.push_back(x[0] * x[1]);
  scratch.resize(4);
}
