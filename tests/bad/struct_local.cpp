// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: struct_local.cpp:10:3: error: local variables of struct type are not supported
// CHECK: note: read the fields of struct parameters directly
struct Point {
  double x, y;
};

double f(Point p) {
  double s = p.x;
  Point q = p;
  return s * q.y;
}
