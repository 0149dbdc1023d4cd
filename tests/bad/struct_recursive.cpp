// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: struct_local_passed.cpp:14:16: error: the local struct 'q' can be used by its fields only
// CHECK: note: read and assign its fields (q.x); pass and return structs field by field
// A local struct is a local per field: as a whole it is not passed on yet.
struct Point {
  double x, y;
};

static double norm2(Point p) { return p.x * p.x + p.y * p.y; }

double f(Point p) {
  Point q = p;
  q.x *= 2;
  return norm2(q);
}
