// Lennard-Jones energy of n particles in 3D; minus its gradient is the force on each particle.
// SAMPLE: grad lj_energy
// SAMPLE: jvp lj_energy
// VERIFY: lj_energy n=5 lo=0.0 hi=3.0
double lj_energy(const double* pos, int n, double epsilon, double sigma) {
  double energy = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      double dx = pos[3 * i] - pos[3 * j];
      double dy = pos[3 * i + 1] - pos[3 * j + 1];
      double dz = pos[3 * i + 2] - pos[3 * j + 2];
      double r2 = dx * dx + dy * dy + dz * dz + 0.5;  // softened so that random points stay finite
      double s2 = sigma * sigma / r2;
      double s6 = s2 * s2 * s2;
      energy += 4 * epsilon * (s6 * s6 - s6);
    }
  }
  return energy;
}
