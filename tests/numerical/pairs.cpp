// std::pair of scalars, as code returns two values: built by a braced list, a constructor or
// std::make_pair, read by .first/.second, std::get and structured bindings (of pairs and of
// structs), passed as parameters; the adjoint of `std::pair<double, double> p` is a pair too.
#include <cmath>
#include <utility>

static std::pair<double, double> to_polar(double x, double y) { return {std::hypot(x, y), std::atan2(y, x)}; }

static std::pair<double, double> min_max(const double* v, int n) {
  std::pair<double, double> range(v[0], v[0]);
  for (int i = 1; i < n; ++i) {
    if (v[i] < range.first) range.first = v[i];
    if (v[i] > range.second) range.second = v[i];
  }
  return range;
}

double polar_energy(double x, double y) {
  auto [r, theta] = to_polar(x, y);
  std::pair<double, double> scaled = std::make_pair(2.0 * r, theta);
  scaled.second *= 0.5;
  return scaled.first * std::sin(scaled.second) + r * theta;
}
// VERIFY: polar_energy

double spread(const double* v, int n, double t) {
  const auto& [lo, hi] = min_max(v, n);
  std::pair<double, double> mid{0.5 * (lo + hi), hi - lo};
  return std::get<0>(mid) * t + std::get<1>(mid) * std::get<1>(mid);
}
// VERIFY: spread n=7

struct Sample {
  double weight, value;
};

// Pairs as parameters, by value and by const reference; bindings by reference into them and into
// a local struct, written through.
double weighted(std::pair<double, double> a, const std::pair<double, int>& b, double s) {
  Sample sample{a.first, a.second * s};
  auto& [w, v] = sample;
  w *= b.first;
  v += b.second;
  const auto& [first, second] = a;
  return sample.weight * sample.value + first * second;
}
// VERIFY: weighted
