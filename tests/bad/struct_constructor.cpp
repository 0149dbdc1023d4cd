// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: struct_constructor.cpp:16:10: error: this constructor computes field 'y' in a way that is not supported
// CHECK: note: initialize each field with one of the constructor's parameters
// CHECK: struct_constructor.cpp:17:10: error: a constructor with statements in its body is not supported
// A constructor that computes a field from its parameters, or sets it in its body: not followed
// yet (its fields would otherwise be taken as zero, a silently wrong gradient).
struct Square {
  double x, y;
  Square(double a) : x(a), y(a * a) {}
};
struct Scaled {
  double x, y;
  Scaled(double a, double s) : x(a) { y = a * s; }
};
double f(double a) {
  Square q(a);
  Scaled s(a, 2.0);
  return q.x * q.y + s.x * s.y;
}
