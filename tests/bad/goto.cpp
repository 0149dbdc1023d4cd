// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: goto.cpp:9:5: error: goto and labels are not supported
// CHECK: note: use structured control flow
double f(double x) {
  double y = x;
again:
  y = y * 2;
  if (y < 10)
    goto again;
  return y;
}
