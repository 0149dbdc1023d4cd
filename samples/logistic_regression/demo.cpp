// The main job of the README: train a logistic-regression model with the gradient Adjoint
// generated from logistic_regression.cpp, then verify that gradient numerically.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "adjoint/verify.h"
#include "logistic_regression.cpp"
#include "logistic_regression.grad.h"
#include "logistic_regression.jvp.h"

int main() {
  const int n = 400, d = 5;
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  std::vector<double> truth{1.5, -2.0, 0.7, 0.0, 3.0}, X(n * d), y(n);
  for (int i = 0; i < n; ++i) {
    double z = -0.5;
    for (int j = 0; j < d; ++j) z += (X[i * d + j] = normal(rng)) * truth[j];
    y[i] = std::uniform_real_distribution<double>(0, 1)(rng) < 1 / (1 + std::exp(-z)) ? 1 : 0;
  }
  std::vector<double> w(d, 0.0), w_bar(d), X_bar(n * d), y_bar(n);
  double b = 0, lambda = 1e-3, rate = 0.5;
  std::printf("step      loss\n");
  for (int step = 0; step <= 200; ++step) {
    if (step % 25 == 0) std::printf("%4d  %.6f\n", step, loss(X.data(), y.data(), n, d, w.data(), b, lambda));
    std::fill(w_bar.begin(), w_bar.end(), 0.0);
    double b_bar = 0, lambda_bar = 0;
    loss_grad(X.data(), y.data(), n, d, w.data(), b, lambda, X_bar.data(), y_bar.data(), w_bar.data(), &b_bar, &lambda_bar);
    for (int j = 0; j < d; ++j) w[j] -= rate * w_bar[j];
    b -= rate * b_bar;
  }
  std::printf("learned w = [");
  for (int j = 0; j < d; ++j) std::printf("%s%.2f", j ? ", " : "", w[j]);
  std::printf("], b = %.2f  (data drawn with w = [1.5, -2, 0.7, 0, 3], b = -0.5)\n\n", b);

  std::printf("verification (random inputs, double):\n");
  adjoint::VerifyOptions options;
  options.ints = {12, 3};
  int failures = adjoint::verify("loss", loss, loss_grad, loss_jvp, options);
  std::printf(failures ? "VERIFICATION FAILED\n" : "gradient verified\n");
  return failures;
}
