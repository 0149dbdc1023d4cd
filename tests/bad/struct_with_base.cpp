// ARGS: grad %s --fn f
// EXPECT: struct_with_base.cpp:10:10: error: type 'Particle' is not supported
// EXPECT: note: Adjoint differentiates structs of float, double, integer and bool fields without bases or virtual functions
struct Point {
  double x, y;
};
struct Particle : Point {
  double mass;
};
double f(Particle p) { return p.mass * p.x; }
