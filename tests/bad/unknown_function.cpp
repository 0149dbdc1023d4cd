// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn lossy -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: error: no function named 'lossy' is defined in
// CHECK: note: functions defined here: helper, loss
double helper(double x) { return x * 2; }
double loss(double x) { return helper(x) * x; }
