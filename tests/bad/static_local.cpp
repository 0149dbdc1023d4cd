// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: static_local.cpp:5:3: error: static or extern local variable 'calls' is not supported
// CHECK: note: state that outlives a call cannot be differentiated
double f(double x) {
  static double calls = 0;
  return x * x;
}
