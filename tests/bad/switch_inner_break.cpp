// RUN: rm -rf %t && mkdir %t && not %adjoint jvp %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: switch_inner_break.cpp:9:18: error: a break that leaves the switch from inside a case is not supported
// CHECK: note: end the case with its break, and use if / else inside it
double f(double x, int mode) {
  double y = x;
  switch (mode) {
    case 0:
      y *= x;
      if (y > 1) break;
      y += 1;
      break;
    default:
      y = -y;
  }
  return y;
}
