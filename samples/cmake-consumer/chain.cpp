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

// A member function, checked as --fn Anchor::pull (files named chain.Anchor_pull.*).
struct Anchor {
  double stiffness, height;
  double pull(const double* x, int n) const {
    double e = 0;
    for (int i = 0; i < n; ++i) e += 0.5 * stiffness * (x[2 * i + 1] - height) * (x[2 * i + 1] - height);
    return e;
  }
};
// How the verifier reaches Anchor's floating fields.
#include <tuple>
inline auto adjoint_fields(Anchor& a) { return std::tie(a.stiffness, a.height); }
