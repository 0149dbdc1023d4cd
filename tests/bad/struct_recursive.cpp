// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: struct_recursive.cpp:12:10: error: 'halve' calls itself, and it is inlined (it returns a struct)
// CHECK: note: pass and return the struct's fields, or write the recursion as a loop
// A call that passes or returns a struct whole is inlined, which a recursive one cannot be.
struct Point {
  double x, y;
};

static Point halve(Point p, int n) {
  if (n == 0) return p;
  Point q{p.x / 2, p.y};
  return halve(q, n - 1);
}

double f(Point p) {
  Point q = halve(p, 3);
  return q.x * q.y;
}
