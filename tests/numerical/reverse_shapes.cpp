// The shapes the reverse sweep writes for common forward code, each verified: a power rule for
// repeated factors, one quotient for both partials of a division, stores into adjoints that are
// zero, and additions at a loop-invariant index summed in a register.
#include <cmath>

// x[i] gets additions the inner loop sums in a register, x[j] in memory; the two meet where j == i.
double pair_energy(const double* x, int n, double k) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double d = x[i] - x[j] + 0.25 * j;
      e += k * d * d * d / (1.0 + d * d);
    }
  return e;
}
// VERIFY: pair_energy n=4

// A quotient kept in a local (r) whose reverse reads it, and one (q) that reads its own old value.
double ratio_chain(const double* x, int n) {
  double s = 0.5, q = 1;
  for (int i = 0; i < n; ++i) {
    q = x[i] / (q + 1.5);
    double r = s / (x[i] * x[i] + 1);
    s += r + q * 0.5 * q;
  }
  return s;
}
// VERIFY: ratio_chain n=5

// A row of a matrix summed into y[i] over an inner loop, with y read after the loop.
void row_sums(const double* a, const double* w, double* y, int n) {
  for (int i = 0; i < n; ++i) {
    y[i] = 0;
    for (int j = 0; j < n; ++j) y[i] += a[i * n + j] * w[j] * w[j];
    y[i] = y[i] / (1.0 + y[i] * y[i]);
  }
}
// VERIFY: row_sums n=3

// A branch that leaves an adjoint zero on one side only, inside a loop.
double half_rectified(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double t = x[i] * x[i];
    double u = 0;
    if (x[i] > 0.5) u = t * x[i];
    s += u + 0.5 * t;
  }
  return s;
}
// VERIFY: half_rectified n=6
