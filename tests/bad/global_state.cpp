// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: global_state.cpp:6:37: error: global variable 'scale' is not supported
// CHECK: note: pass it as a parameter, or make it a constant
double scale = 2.0;

double f(double x) { return x * x * scale; }
