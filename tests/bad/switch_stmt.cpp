// RUN: rm -rf %t && mkdir %t && not %adjoint jvp %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: switch_stmt.cpp:5:3: error: switch is not supported
// CHECK: note: use if / else if
double f(double x, int mode) {
  switch (mode) {
    case 0: return x;
    default: return x * x;
  }
}
