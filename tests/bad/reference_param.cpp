// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: reference_param.cpp:4:20: error: reference type 'double &' is not supported
// CHECK: note: pass by value (structs also by const reference), or by pointer for arrays and outputs
double f(double x, double& out) {
  out = x * 2;
  return x * x;
}
