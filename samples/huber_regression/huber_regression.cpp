// Linear regression with the Huber loss: quadratic near zero, linear in the tails (a branch on
// data-dependent residuals).
// SAMPLE: grad huber_loss
// SAMPLE: jvp huber_loss
// VERIFY: huber_loss ints=9,2 lo=-2.0 hi=2.0
#include <cmath>

double huber_loss(const double* X, const double* y, int n, int d, const double* w, double delta) {
  double total = 0;
  for (int i = 0; i < n; ++i) {
    double pred = 0;
    for (int j = 0; j < d; ++j) pred += X[i * d + j] * w[j];
    double r = pred - y[i];
    if (std::fabs(r) <= delta) {
      total += 0.5 * r * r;
    } else {
      total += delta * (std::fabs(r) - 0.5 * delta);
    }
  }
  return total / n;
}
