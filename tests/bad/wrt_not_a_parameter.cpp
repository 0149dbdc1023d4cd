// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f --wrt x,n -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: error: 'n' is not a floating-point parameter of 'f'
// CHECK: note: --wrt takes names of float or double parameters
double f(double x, int n) { return x * n; }
