// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: pointer_to_pointer.cpp:3:10: error: type 'const double **' is not supported
double f(const double** rows, int n) { return rows[0][0] * n; }
