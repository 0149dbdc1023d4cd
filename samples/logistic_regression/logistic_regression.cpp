// Logistic regression: mean cross-entropy of a linear classifier with L2 regularization.
// SAMPLE: grad loss
// SAMPLE: jvp loss
// VERIFY: loss ints=12,3 length=64
#include <cmath>

// X: n rows of d features (row-major), y: labels in {0, 1}, w: d weights, b: bias.
double loss(const double* X, const double* y, int n, int d, const double* w, double b, double lambda) {
  double total = 0;
  for (int i = 0; i < n; ++i) {
    double z = b;
    for (int j = 0; j < d; ++j) z += X[i * d + j] * w[j];
    // log(1 + e^z) - y z, the cross-entropy of sigmoid(z) against y, written to stay finite.
    double softplus = z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
    total += softplus - y[i] * z;
  }
  double penalty = 0;
  for (int j = 0; j < d; ++j) penalty += w[j] * w[j];
  return total / n + 0.5 * lambda * penalty;
}
