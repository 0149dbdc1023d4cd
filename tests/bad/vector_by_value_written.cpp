// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: vector_by_value_written.cpp:8:5: error: writes into 'x', a std::vector passed by value, which is not supported
// CHECK: note: pass it by reference to change the caller's, or copy it into a local std::vector
#include <vector>
// The derivatives take x by const reference: a copy the function scribbles on is not theirs.
double f(std::vector<double> x) {
  for (std::size_t i = 1; i < x.size(); ++i)
    x[i] += x[i - 1];
  return x.back();
}
