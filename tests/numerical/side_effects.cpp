// Assignments and ++/-- inside expressions, as C++ programmers chain them: each runs before the
// statement that holds it, and the expression reads what it leaves (x++: the value before).
#include <cmath>

double chained(double x, double y) {
  double a, b;
  a = b = x * y;
  double u = x, t = y;
  u += t *= 2;
  return a * std::sin(b) + u * t;
}
// VERIFY: chained

double walk(const double* x, int n) {
  double s = 0;
  int i = 0;
  while (i < n) s += x[i++] * x[0];
  int k = -1;
  double w = 0;
  for (int j = 0; j < n - 1; ++j) w += std::cos(x[++k]) * x[0];
  return s + w;
}
// VERIFY: walk

double counters(double x) {
  double y = x;
  double z = y++ * 2;  // reads x, then y is x + 1
  double v = --y * z;  // y is x again
  return z * v + y;
}
// VERIFY: counters
