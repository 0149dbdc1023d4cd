// ARGS: grad %s --fn f
// EXPECT: struct_local.cpp:10:3: error: local variables of struct type are not supported
// EXPECT: note: read the fields of struct parameters directly
struct Point {
  double x, y;
};

double f(Point p) {
  double s = p.x;
  Point q = p;
  return s * q.y;
}
