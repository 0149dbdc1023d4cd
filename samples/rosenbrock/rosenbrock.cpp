// The extended Rosenbrock function, a standard test objective for optimizers.
// SAMPLE: grad rosenbrock
// SAMPLE: jvp rosenbrock
// VERIFY: rosenbrock n=10
double rosenbrock(const double* x, int n) {
  double f = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double a = x[i + 1] - x[i] * x[i];
    double b = 1 - x[i];
    f += 100 * a * a + b * b;
  }
  return f;
}
