// Relaxes a hanging chain to equilibrium by gradient descent on its energy, with the gradient
// Adjoint generated at build time (adjoint/chain.energy.grad.h).
#include <cstdio>
#include <vector>

#include "chain.energy.grad.h"
#include "chain.h"
#include "pins.pin_energy.grad.h"

int main() {
  const int n = 8;
  std::vector<double> x(2 * n), g(2 * n);
  for (int i = 0; i < n; ++i) {
    x[2 * i] = 0.5 * (i + 1);
    x[2 * i + 1] = 0;
  }
  double gravity = 1.0, gravity_bar = 0;
  for (int step = 0; step <= 3000; ++step) {
    if (step % 1000 == 0) std::printf("step %4d  energy %.6f\n", step, energy(x.data(), n, gravity));
    std::fill(g.begin(), g.end(), 0.0);
    energy_grad(x.data(), n, gravity, g.data(), &gravity_bar);
    for (int k = 0; k < 2 * n; ++k) x[k] -= 0.01 * g[k];
  }
  double norm = 0;
  for (double v : g) norm += v * v;
  std::printf("end of chain at (%.3f, %.3f), gradient norm %.2e\n", x[2 * n - 2], x[2 * n - 1], norm);
  // The force a pin at (4, 0) would put on the end: minus its energy's gradient.
  std::vector<double> pin_bar(2 * n);
  double px_bar = 0, py_bar = 0;
  pin_energy_grad(x.data(), n, 4.0, 0.0, pin_bar.data(), &px_bar, &py_bar);
  std::printf("a pin at (4, 0) would pull the end with (%.3f, %.3f)\n", -pin_bar[2 * n - 2], -pin_bar[2 * n - 1]);
  return norm < 1e-4 ? 0 : 1;  // converged
}
