#include "chain.h"

#include <cmath>

double energy(const double* x, int n, double gravity) {
  double e = 0;
  double px = 0, py = 0;
  for (int i = 0; i < n; ++i) {
    double dx = x[2 * i] - px, dy = x[2 * i + 1] - py;
    double stretch = std::sqrt(dx * dx + dy * dy) - kRestLength;
    e += 0.5 * CHAIN_STIFFNESS * stretch * stretch + gravity * x[2 * i + 1];
    px = x[2 * i];
    py = x[2 * i + 1];
  }
  return e;
}
