// Corner cases: indirect indices, arrays updated from themselves, declarations without
// initializers, shadowing, mixed precision, several activity patterns of one callee.
#include <cmath>

double indirect(const double* x, const int* idx, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[idx[i] % n] * x[i];
  return s;
}

double call_indirect(const double* x, int n) {
  int idx[8] = {3, 1, 4, 1, 5, 2, 6, 0};
  return indirect(x, idx, n < 8 ? n : 8) + x[0];
}
// VERIFY: call_indirect n=8

double self_referencing(double* a, int n) {
  for (int i = 1; i < n; ++i) a[i] += a[i - 1] * 0.5;
  for (int i = 0; i < n; ++i) a[i] *= a[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i];
  return s;
}
// VERIFY: self_referencing n=7

double declared_then_assigned(double x, double y) {
  double r;
  double q;
  if (x > y) {
    r = x * y;
    q = std::sin(r);
  } else {
    r = x - y;
    q = r * r;
  }
  return r * q + (x > 1 ? (y > 1 ? x : y) : x * y);
}
// VERIFY: declared_then_assigned

double shadowing(double x) {
  double t = x * 2;
  {
    double t = x * 3;
    x = t + 1;
  }
  for (int i = 0; i < 2; ++i) {
    double t2 = t * x;
    t = t2 - i;
  }
  return t * x;
}
// VERIFY: shadowing

double mixed_precision(const float* a, double b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    float f = a[i] * static_cast<float>(b);
    s += static_cast<double>(f) * b;
  }
  return s;
}
// VERIFY: mixed_precision n=5

static double weighted(double a, double b) { return a * a * b; }

double activity_patterns(double x, double c) {
  double constant = 2.0;
  return weighted(x, constant) + weighted(constant, x) + weighted(x, x) + weighted(c, 3.0);
}
// VERIFY: activity_patterns wrt=x

void scale_into(const double* in, double* out, int n, double s) {
  for (int i = 0; i < n; ++i) out[i] = in[i] * s;
}

double output_callee_expression_args(const double* x, int n, double s) {
  double tmp[8];
  scale_into(x, tmp, n, s * s + 1);
  double t = 0;
  for (int i = 0; i < n; ++i) t += tmp[i] * tmp[i];
  return t;
}
// VERIFY: output_callee_expression_args n=6

double array_recursion(const double* x, int n) {
  if (n == 0) return 0;
  return x[n - 1] * x[n - 1] + 0.5 * array_recursion(x, n - 1);
}
// VERIFY: array_recursion n=6

double integer_arithmetic_indices(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    int j = (i * 7 + 3) % n;
    int k = j / 2;
    s += x[j] * x[k] - x[i] / (1 + x[k]);
  }
  return s;
}
// VERIFY: integer_arithmetic_indices n=9
