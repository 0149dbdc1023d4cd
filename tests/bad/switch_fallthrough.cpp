// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: switch_fallthrough.cpp:9:5: error: a case that falls through into the next is not supported
// CHECK: note: end the case before it with break (or return); give cases that share code one list of labels
double f(double x, int mode) {
  double y = x;
  switch (mode) {
    case 0:
      y *= x;
    case 1:
      y += 1;
      break;
  }
  return y;
}
