// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: function_pointer.cpp:5:10: error: indirect calls are not supported
// CHECK: note: call the function by name
double f(double x, double (*g)(double)) {
  return g(x) * x;
}
