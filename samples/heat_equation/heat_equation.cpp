// Explicit time stepping of the 1D heat equation with fixed ends; returns the final state's
// weighted energy. The state is overwritten every step, so the gradient tapes what it needs.
// SAMPLE: grad heat_energy
// SAMPLE: jvp heat_energy
// VERIFY: heat_energy ints=12,20
double heat_energy(const double* u0, int n, int steps, double diffusivity) {
  double u[32];
  double next[32];
  for (int i = 0; i < n; ++i) u[i] = u0[i];
  double r = 0.2 * diffusivity;
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i + 1 < n; ++i) next[i] = u[i] + r * (u[i - 1] - 2 * u[i] + u[i + 1]);
    for (int i = 1; i + 1 < n; ++i) u[i] = next[i];
  }
  double energy = 0;
  for (int i = 0; i < n; ++i) energy += (i + 1) * u[i] * u[i];
  return energy;
}
