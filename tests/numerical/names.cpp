// Functions as real code names them: in namespaces, in extern "C" blocks, template instantiations
// (--fn dot<double>), and constant tables at namespace scope.
#include <cmath>

namespace physics {
double spring(double x, double k) { return 0.5 * k * x * x; }
namespace detail {
inline double damp(double v) { return std::tanh(v); }
}  // namespace detail
double energy(double x, double v, double k) { return spring(x, k) + detail::damp(v) * v; }
}  // namespace physics
// VERIFY: physics::energy
// VERIFY: physics::spring

extern "C" {
double c_api_loss(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += std::sin(x[i]) * x[i];
  return s;
}
}
// VERIFY: c_api_loss n=5

template <class T>
T weighted_dot(const T* x, const T* w, int n) {
  T s = 0;
  for (int i = 0; i < n; ++i) s += w[i] * x[i] * x[i];
  return s;
}
template <class T>
T squared(T v) { return v * v; }
// Both instantiations are differentiated, each under its own name.
double uses_templates(const double* x, const double* w, int n) { return weighted_dot(x, w, n) + squared(x[0]); }
float uses_float_template(float v) { return squared(v) * 3.0f; }
// VERIFY: weighted_dot<double> n=4
// VERIFY: uses_templates n=4
// VERIFY: uses_float_template

// A constant table at namespace scope: read like a local array of constants.
constexpr double kWeights[4] = {0.5, 1.5, -2.0, 0.25};
const int kOrder[4] = {3, 1, 0, 2};
double tabulated(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += kWeights[i % 4] * x[kOrder[i % 4]] * x[i];
  return s;
}
// VERIFY: tabulated n=6

// sizeof is a constant of its type.
double last_of_local(double x) {
  double a[3] = {x, 2 * x, x * x};
  return a[sizeof(a) / sizeof(a[0]) - 1] * x;
}
// VERIFY: last_of_local

// Names the generated code uses for its own variables: a mean called x_bar, a rate called v_dot,
// a buffer called w_tape. They are renamed in the derivatives (x_bar_), which did not compile.
double named_like_adjoints(const double* x, int n, double v_dot) {
  double x_bar = 0;
  for (int i = 0; i < n; ++i) x_bar += x[i] / n;
  double w_tape[2] = {x_bar, v_dot};
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += (x[i] - x_bar) * (x[i] - x_bar) * w_tape[1];
    x_bar = std::sin(x_bar);
  }
  return s + w_tape[0];
}
// VERIFY: named_like_adjoints n=5
static double scaled(double x, double x_bar) { return x * x_bar; }
double calls_named_like_adjoints(double x, double y) { return scaled(x, y) * scaled(y, x); }
// VERIFY: calls_named_like_adjoints
