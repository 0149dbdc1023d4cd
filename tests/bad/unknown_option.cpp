// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f --frobnicate -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: Unknown command line argument '--frobnicate'
double f(double x) { return x * x; }
