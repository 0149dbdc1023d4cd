// RUN: rm -rf %t && mkdir %t && not %adjoint jvp %s -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: must be specified at least once
double f(double x) { return x * x; }
