// std::vector and std::array as numerical code uses them: parameters by const reference (inputs),
// by reference (outputs) and by value (read only), locals sized at their declaration and copies,
// size_t loops, range-based for loops (by value and by reference, over containers and arrays),
// at(), front(), back(), empty(), float and integer element types; the algorithms of <numeric>
// and <algorithm> that sum, search and write ranges.
#include <array>
#include <cmath>
#include <vector>

double mean_squared_error(const std::vector<double>& prediction, const std::vector<double>& target) {
  double sum = 0;
  for (std::size_t i = 0; i < prediction.size(); ++i) {
    double r = prediction[i] - target.at(i);
    sum += r * r;
  }
  return prediction.empty() ? 0.0 : sum / static_cast<double>(prediction.size());
}
// VERIFY: mean_squared_error

// Softmax into an output vector; the maximum shifts the exponent (a running max over a range).
void softmax(const std::vector<double>& logits, std::vector<double>& probabilities) {
  double m = logits.front();
  for (double z : logits) m = std::fmax(m, z);
  double total = 0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    probabilities[i] = std::exp(logits[i] - m);
    total += probabilities[i];
  }
  for (auto& p : probabilities) p /= total;
}
// VERIFY: softmax

double spring_energy(const std::array<double, 3>& p, const std::array<double, 3>& q, double stiffness) {
  std::array<double, 3> d{};
  for (std::size_t k = 0; k < d.size(); ++k) d[k] = p[k] - q[k];
  double length = 0;
  for (double c : d) length += c * c;
  length = std::sqrt(length);
  return 0.5 * stiffness * (length - 1) * (length - 1);
}
// VERIFY: spring_energy

float weighted_sum(const std::vector<float>& x, const std::vector<float>& w) {
  float s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) s += w[i] * std::tanh(x[i]);
  return s;
}
// VERIFY: weighted_sum length=8

// A gather by integer indices, and a vector taken by value (read only).
double gather(std::vector<double> table, const std::vector<int>& index, double scale) {
  double s = 0;
  for (int k : index) s += scale * table[static_cast<std::size_t>(k)] * table.back();
  return s;
}
// VERIFY: gather

// Locals: a smoothed copy of the input, a scratch vector filled with a value, a fixed stencil.
double smoothed_length(const std::vector<double>& x, const std::vector<double>& y, double tension) {
  std::size_t n = x.size();
  std::vector<double> sx = x, sy(y), w(n, tension);
  const std::array<double, 3> kernel = {0.25, 0.5, 0.25};
  for (std::size_t i = 1; i + 1 < n; ++i) {
    sx[i] = 0;
    sy[i] = 0;
    for (std::size_t j = 0; j < kernel.size(); ++j) {
      sx[i] += kernel[j] * x[i + j - 1];
      sy[i] += kernel[j] * y[i + j - 1];
    }
  }
  double length = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    double dx = sx[i + 1] - sx[i], dy = sy[i + 1] - sy[i];
    length += std::sqrt(dx * dx + dy * dy + 1e-9);
  }
  double bend = 0;
  for (double wi : w) bend += wi * wi;
  return length + 1e-3 * bend;
}
// VERIFY: smoothed_length

// Range-for over a local array, by reference (updates) and by value.
double scaled_powers(double x, const std::array<double, 4>& coefficients) {
  double powers[4] = {1, x, x * x, x * x * x};
  for (double& p : powers) p *= 0.5;
  double s = 0;
  std::size_t k = 0;
  for (double p : powers) {
    s += coefficients[k] * p;
    ++k;
  }
  return s;
}
// VERIFY: scaled_powers

// The numerical algorithms of the standard library over the same ranges.
#include <algorithm>
#include <iterator>
#include <numeric>

double centered_energy(const std::vector<double>& x, const std::vector<double>& w) {
  double mean = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
  double peak = *std::max_element(x.begin(), x.end());
  double energy = 0;
  energy = std::inner_product(w.begin(), w.end(), x.begin(), energy);
  energy += 0.5 * peak * peak - *std::min_element(w.cbegin(), w.cend());
  return energy - mean * mean;
}
// VERIFY: centered_energy

// *std::max_element over a std::array, a C array or a pointer range dereferences a plain
// pointer, not an iterator's operator* (it was "cannot tell which array this pointer points into").
double extremes(const std::array<double, 4>& c, const double* p, int n, double s) {
  double local[3] = {s, s * s, 0.5};
  double high = *std::max_element(c.begin(), c.end()) + *std::min_element(std::begin(local), std::end(local));
  return high * s + *std::max_element(p, p + n) * *std::min_element(c.cbegin(), c.cend());
}
// VERIFY: extremes

double table_sums(const double* p, int n, double scale) {
  double local[4] = {scale, 2 * scale, scale * scale, 1};
  double counts = std::accumulate(std::begin(local), std::end(local), 0.0);
  int whole = std::accumulate(local, local + 4, 0);  // summed in int, as std::accumulate does: no derivative
  return std::accumulate(p, p + n, counts) + std::inner_product(local, local + 4, p, 0.0) + whole;
}
// VERIFY: table_sums

// The algorithms that write a range, as statements: std::transform with a lambda written in the
// call (capturing by value), a named one, a generic one and a function object; in place and into
// an output vector; std::copy and std::fill, over containers, arrays and pointers.
#include <functional>

void activations(const std::vector<double>& x, const double* bias, double slope, std::vector<double>& out) {
  std::vector<double> z(x.size());
  std::transform(x.begin(), x.end(), bias, z.begin(), std::plus<double>());
  auto softplus = [&](double a) { return std::log1p(std::exp(slope * a)) / slope; };
  std::transform(z.begin(), z.end(), out.begin(), softplus);
  std::transform(out.begin(), out.end(), z.begin(), out.begin(),
                 [slope](double a, double b) { return a + 0.1 * slope * b; });
  std::transform(out.begin(), out.end(), out.begin(), [](auto a) { return std::tanh(a); });
}
// VERIFY: activations length=8

double staged(const double* p, int n, double s) {
  double stage[4];
  std::fill(std::begin(stage), std::end(stage), s * s);
  std::copy(p, p + (n - 2), stage);
  std::transform(stage, stage + 4, stage, std::negate<double>());
  return std::inner_product(stage, stage + 4, p, 0.0) + stage[3];
}
// VERIFY: staged n=5

// Functions named as the operation: the program's own (by name and by address, a template's
// instantiation, one with a rule of its own) and the math library's.
static double squash(double v) { return v / (1 + std::fabs(v)); }
template <class T>
T leaky(T v, T slope) {
  return v > 0 ? v : slope * v;
}

void named_operations(const std::vector<double>& x, const std::vector<double>& slope, std::vector<double>& out) {
  std::vector<double> h(x.size());
  std::transform(x.begin(), x.end(), h.begin(), squash);
  std::transform(h.begin(), h.end(), slope.begin(), h.begin(), leaky<double>);
  std::transform(h.begin(), h.end(), h.begin(), &squash);
  std::transform(h.begin(), h.end(), out.begin(), ::tanh);
}
// VERIFY: named_operations length=6 lo=-1.5 hi=1.5

// Function objects of the program's own as the operation: a local, a temporary and one taking two
// ranges, their operator() inlined for each element.
struct Scale {
  double factor;
  double operator()(double t) const { return factor * std::sin(t); }
};
struct Blend {
  double w;
  double operator()(double a, const double& b) const {
    double mixed = w * a + (1 - w) * b;
    return mixed * mixed;
  }
};

double functor_operations(const std::vector<double>& x, double k, double w) {
  std::vector<double> y(x.size()), z(x.size());
  Scale scale{k};
  std::transform(x.begin(), x.end(), y.begin(), scale);
  std::transform(y.begin(), y.end(), x.begin(), z.begin(), Blend{w});
  std::transform(z.begin(), z.end(), z.begin(), Scale{0.5 * k});
  return std::accumulate(z.begin(), z.end(), 0.0);
}
// VERIFY: functor_operations length=6

// A generic lambda as the operation at two element types: each transform calls the instantiation
// for its elements (the first instantiation was taken for both, an int one here: a zero gradient).
double generic_at_two_types(const std::vector<double>& x, double a) {
  auto sq = [a](auto v) { return a * v * v; };
  std::vector<double> y(x.size());
  std::vector<int> k(3, 2);
  std::vector<int> m(3);
  std::transform(k.begin(), k.end(), m.begin(), sq);
  std::transform(x.begin(), x.end(), y.begin(), sq);
  return y[0] + y[1] + m[2];
}
// VERIFY: generic_at_two_types length=4
