// Lambdas named by a local and called by that name: without captures, capturing scalars by value
// and by reference, capturing arrays and containers, calling each other, and generic ones; and
// function objects.
#include <cmath>
#include <vector>

double soft_energy(const double* x, int n, double scale) {
  auto square = [](double v) { return v * v; };
  auto soften = [scale](double v) { return std::log1p(scale * v); };
  double total = 0;
  for (int i = 0; i < n; ++i) total += soften(square(x[i]));
  return total;
}
// VERIFY: soft_energy

double neighbours(const std::vector<double>& x, double coupling) {
  double bonus = 0.5;
  auto pair = [&](std::size_t i, std::size_t j) { return coupling * (x[i] - x[j]) * (x[i] - x[j]) + bonus * x[i]; };
  double e = 0;
  for (std::size_t i = 0; i + 1 < x.size(); ++i) e += pair(i, i + 1);
  return e;
}
// VERIFY: neighbours

double generic(double a, double b) {
  auto blend = [](auto u, auto v) { return u * std::sin(v) + v; };
  return blend(a, b) * blend(b, a);
}
// VERIFY: generic

// A capture by value is the value where the lambda is made, not where it is called (found by the
// random generator: passing the variable at each call gave b's gradient 0).
double captured_before_change(double a, double b) {
  auto bend = [b](double u) { return std::sin(u * b) + 0.5 * u; };
  auto track = [&b](double u) { return u * b; };
  b *= 3;
  return bend(a) + track(a) + b;
}
// VERIFY: captured_before_change

// A lambda writing into a container it captures by reference (the caller's output): inlined, its
// stores undone by the gradient; also where the caller read what it overwrites (silently wrong
// when the lambda was a function of its own), and with a copy it captures by value.
void scatter_squares(const std::vector<double>& x, std::vector<double>& out) {
  auto put = [&out](std::size_t i, double v) { out[i] = v * v; };
  for (std::size_t i = 0; i < x.size(); ++i) put(i, std::sin(x[i]));
}
// VERIFY: scatter_squares

double lambda_overwrites_read(const std::vector<double>& x, std::vector<double>& out, double w) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) s += out[i] * x[i];
  auto put = [&out, w](std::size_t i, double v) { out[i] = w * v * v; };
  w = 2 * w;
  for (std::size_t i = 0; i < x.size(); ++i) put(i, std::sin(x[i]) + w);
  for (std::size_t i = 0; i < x.size(); ++i) s += out[i];
  return s;
}
// VERIFY: lambda_overwrites_read

// Lambdas that assign to a scalar they capture by reference: inlined, their bodies assign the
// variable itself (a lambda's function would assign its own copy).
double accumulate_by_lambda(const double* x, int n, double w) {
  double total = 0;
  auto add = [&](double v) { total += w * v * v; };
  for (int i = 0; i < n; ++i) add(std::sin(x[i]));
  auto scale = [&total](double s) { total *= s; };
  scale(0.5 + 0.25 * w);
  return total;
}
// VERIFY: accumulate_by_lambda n=5

// Function objects: structs with an operator(), const (reading its fields) or not (accumulating
// into them), called on locals, on a temporary and on a parameter.
#include <tuple>

struct Quadratic {
  double k, c;
  double operator()(double x) const { return k * x * x + c * std::sin(x); }
};

struct SquaresSum {
  double total = 0;
  void operator()(double x) { total += x * x; }
};

double functors(const double* x, int n, double k) {
  Quadratic q{k, 0.5};
  SquaresSum squares;
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += q(x[i]);
    squares(x[i] * k);
  }
  return s + squares.total + Quadratic{2.0, k}(x[0]);
}
// VERIFY: functors n=5

double functor_parameter(const Quadratic& q, double x) { return q(x) * q(2 * x); }
// VERIFY: functor_parameter

inline auto adjoint_fields(Quadratic& q) { return std::tie(q.k, q.c); }
