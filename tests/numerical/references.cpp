// Scalars by reference: outputs (double& energy), in/out accumulators, inputs by const reference
// (read as by value), in double and float, next to arrays and containers.
#include <cmath>
#include <vector>

void polar(const double& x, const double& y, double& radius, double& angle) {
  radius = std::sqrt(x * x + y * y);
  angle = std::atan2(y, x);
}
// VERIFY: polar

// An energy and its virial reported through references, the way simulation codes return several
// results from one pass.
void pair_energy(const double* positions, int n, double cutoff, double& energy, double& virial) {
  energy = 0;
  virial = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double r = std::fabs(positions[i] - positions[j]) + 0.5;
      if (r > cutoff) continue;
      double inv6 = 1 / (r * r * r * r * r * r);
      energy += inv6 * inv6 - inv6;
      virial += r * (6 * inv6 - 12 * inv6 * inv6) / r;
    }
}
// VERIFY: pair_energy ints=5

// An accumulator the caller passes in and gets back updated.
double accumulate_into(const std::vector<double>& v, double& total, const int& n) {
  for (int i = 0; i < n; ++i) total += v[i] * v[i];
  total *= 0.5;
  return total + v[0];
}
// VERIFY: accumulate_into ints=4

float scale_in_place(float& s, const float& k) {
  s = s * k;
  return s * std::tanh(s);
}
// VERIFY: scale_in_place
