// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: struct_with_base.cpp:10:10: error: type 'Particle' is not supported
// CHECK: note: Adjoint differentiates structs of float, double, integer and bool fields without bases or virtual functions
struct Point {
  double x, y;
};
struct Particle : Point {
  double mass;
};
double f(Particle p) { return p.mass * p.x; }
