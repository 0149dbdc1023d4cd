// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f --emit=bitcode -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: error: --emit must be 'source' or 'ir'
double f(double x) { return x * x; }
