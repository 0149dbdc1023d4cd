// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: chained_assignment.cpp:6:7: error: assignment inside an expression is not supported
// CHECK: note: write the assignment as a statement of its own
double f(double x) {
  double a, b;
  a = b = x * 2;
  return a * b;
}
