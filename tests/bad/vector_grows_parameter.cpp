// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: vector_grows_parameter.cpp:15:3: error: 'push_back' on a std::vector that is not a local variable is not supported
// CHECK: note: resize a local std::vector and copy it into the caller's
// CHECK: vector_grows_parameter.cpp:16:3: error: 'pop_back' on a std::vector that is not a local variable is not supported
// CHECK: vector_grows_parameter.cpp:17:3: error: 'insert' on a std::vector is not supported here
// Resizing the caller's vector would change a buffer the gradient must leave as it received it, and
// the caller's adjoint could not follow its size; insert changes a size the reverse sweep follows
// at the end only.
#include <vector>

void f(std::vector<double>& out, const std::vector<double>& x) {
  std::vector<double> scratch;
  for (double v : x) scratch.push_back(v * v);
  out[0] = scratch[0];
  out.push_back(x[0] * x[1]);
  out.pop_back();
  scratch.insert(scratch.begin(), x[0]);
}
