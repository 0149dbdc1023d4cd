// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: long_double.cpp:4:10: error: long double is not supported
// CHECK: note: use double
double f(long double x) { return static_cast<double>(x * x); }
