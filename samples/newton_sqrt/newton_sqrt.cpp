// Newton's iteration for a square root, stopped by a tolerance: a loop whose trip count depends
// on the data, so the gradient replays a recorded count. (The derivative of the iteration
// converges to that of sqrt: 1 / (2 sqrt a).)
// SAMPLE: grad newton_sqrt
// SAMPLE: jvp newton_sqrt
// VERIFY: newton_sqrt lo=2.0 hi=9.0
#include <cmath>

double newton_sqrt(double a) {
  double x = a;
  double step = 1;
  while (std::fabs(step) > 1e-12 * a) {
    double next = 0.5 * (x + a / x);
    step = next - x;
    x = next;
  }
  return x;
}
