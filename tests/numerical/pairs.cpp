// std::pair and std::tuple of scalars, as code returns several values: built by a braced list, a
// constructor, std::make_pair or std::make_tuple, read by .first/.second, std::get and structured
// bindings (of pairs, tuples and structs), passed as parameters; the adjoint of
// `std::pair<double, double> p` is a pair too.
#include <cmath>
#include <tuple>
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

// A tuple of a value, its derivative and an integer count, returned by a Newton-like step.
static std::tuple<double, double, int> cubic(double x, double c) {
  double value = x * x * x - c, slope = 3 * x * x;
  return {value, slope, value > 0 ? 1 : 0};
}

double newton_steps(double x0, double c) {
  double x = x0;
  for (int k = 0; k < 3; ++k) {
    auto [value, slope, above] = cubic(x, c);
    x -= (1 + 0.01 * above) * value / slope;
  }
  std::tuple<double, double> moments = std::make_tuple(x, x * x);
  std::tuple<double, double, double> spread(x0, c, std::get<1>(moments));
  return std::get<0>(moments) + 0.1 * std::get<2>(spread) * std::get<0>(spread);
}
// VERIFY: newton_steps

double tuple_param(const std::tuple<double, int, double>& t, std::tuple<double, double> u) {
  const auto& [a, n, b] = t;
  return a * b * n + std::get<0>(u) * std::sin(std::get<1>(u));
}
// VERIFY: tuple_param
