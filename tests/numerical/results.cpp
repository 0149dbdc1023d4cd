// Rules that read the call's result (tanh_dx(x, y) = 1 - y * y): the reverse reads the local the
// forward stored the result in where that local still holds it, and evaluates the call again
// where a later overwrite has replaced it. Each function here puts the stored value at risk.
#include <cmath>

double logistic(double x);

namespace adjoint::rules {
// d/dx logistic(x) = logistic(x) (1 - logistic(x)) = y (1 - y)  (y = logistic(x))
inline double logistic_dx([[maybe_unused]] double x, double y) { return y * (1 - y); }
}  // namespace adjoint::rules

// Stored once, read by its own reverse only.
double once(double a, double x) {
  double p = logistic(a * x - 0.5);
  double h = std::tanh(p * x);
  return p + 2 * h;
}
// VERIFY: once

// h is overwritten after the first call: the first tanh is evaluated again in the reverse (the
// value is gone), the second exp reads h.
double overwritten_later(double x, double y) {
  double h = std::tanh(x * y);
  double s = h * y;
  h = std::exp(y * x - 1);
  s += h * h;
  return s;
}
// VERIFY: overwritten_later

// Assigned in every iteration and read by the next statement's reverse: the value is taped anyway
// (x_bar reads h), and the reverse of the assignment reads it before restoring the one before.
double assigned_in_loop(const double* x, int n, double w) {
  double h = 0;
  double s = 0;
  for (int i = 0; i < n; ++i) {
    h = std::tanh(w * x[i] + 0.25);
    s += h * x[i];
  }
  return s + h;
}
// VERIFY: assigned_in_loop

// A loop-local computed from a value the loop changes: taped per iteration where it is computed.
double carried(const double* x, int n, double w) {
  double acc = 0.5;
  for (int i = 0; i < n; ++i) {
    double e = std::exp(-acc * w - x[i]);
    acc = acc * 0.5 + e * x[i];
  }
  return acc;
}
// VERIFY: carried

// Reads itself: the call's argument is the old value, so the rule's result cannot share its local.
double reads_itself(double x) {
  double h = x;
  for (int i = 0; i < 3; ++i) h = std::tanh(h * 1.5 + x);
  return h;
}
// VERIFY: reads_itself

// Declared under a guard (hoisted for the reverse), and on the other branch not computed at all.
double guarded(double x, double y) {
  if (x > 0.9) {
    double r = std::sqrt(x * y);
    double c = std::cbrt(r + y);
    return r * c;
  }
  return -x * y;
}
// VERIFY: guarded

// Two arguments and the result: d hypot(x, y) / dx = x / h.
double distance(const double* p, const double* q, int n) {
  double total = 0;
  for (int i = 0; i < n; ++i) {
    double d = std::hypot(p[i] - q[i], p[i] * q[i]);
    total += d * d + d;
  }
  return total;
}
// VERIFY: distance

// The result decides a branch that overwrites it.
double branch_overwrites(double x, double y) {
  double e = std::expm1(x * y);
  if (e > 0.8) e = std::exp2(y - x);
  return e * x;
}
// VERIFY: branch_overwrites

// Float versions share the rules.
float in_float(float x, float y) {
  float t = tanhf(x * y);
  float e = expf(t - y);
  float r = sqrtf(e + x);
  return r * t;
}
// VERIFY: in_float

double logistic(double x) { return 1 / (1 + std::exp(-x)); }
