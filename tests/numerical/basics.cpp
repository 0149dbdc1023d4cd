// Straight-line arithmetic, every operator, compound assignment, casts between floating types.
#include <cmath>

double poly(double x, double y) { return 3 * x * x * y - 2 * x / y + 7 - y; }
// VERIFY: poly

double compound(double x, double y) {
  double a = x;
  a += y * 2;
  a -= x / 3;
  a *= y;
  a /= (1 + x * x);
  a = a * a;
  return a;
}
// VERIFY: compound

float floaty(float x, double y) {
  double widened = x;
  float narrowed = static_cast<float>(y * widened);
  return narrowed * x + (float)y;
}
// VERIFY: floaty

double increments(double x, int n) {
  double s = x;
  int k = n;
  k++;
  --k;
  s += k;
  return s * x;
}
// VERIFY: increments

double conditional_op(double x, double y) { return x > y ? x * y : x - y * y; }
// VERIFY: conditional_op

double unary_minus(double x) { return -x * -(x + 1) - (-x); }
// VERIFY: unary_minus

double reassign_param(double x, double y) {
  x = x * y;
  y = x + y;
  x = std::sin(x) + y;
  return x * y;
}
// VERIFY: reassign_param

double self_update(double x) {
  double v = x;
  v = v * v + v;
  v = std::sqrt(v) * v;
  return v;
}
// VERIFY: self_update
