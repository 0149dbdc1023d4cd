#include "chain.h"

// Energy of a soft pin that pulls the chain's last mass towards (px, py).
double pin_energy(const double* x, int n, double px, double py) {
  double dx = x[2 * n - 2] - px, dy = x[2 * n - 1] - py;
  return 0.5 * CHAIN_STIFFNESS * (dx * dx + dy * dy);
}
