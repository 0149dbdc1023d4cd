// RUN: rm -rf %t && mkdir %t && not %adjoint grad /nonexistent/model.cpp --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: error: cannot read '/nonexistent/model.cpp'
double f(double x) { return x; }
