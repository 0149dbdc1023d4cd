// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o /nonexistent-dir/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: error: cannot write '/nonexistent-dir/out.cpp'
double f(double x) { return x * x; }
