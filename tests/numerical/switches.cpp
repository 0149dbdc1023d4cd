// switch on integers and enumerations: case lists, default first or last, braced cases, returns
// and continue inside cases; enumerations as parameters, locals and constants.
#include <cmath>

enum class Activation { Identity, Tanh, Softplus, Square };
enum Norm : unsigned { L1 = 1, L2 = 2, Huber = 4 };
namespace physics {
enum class Body { Sphere, Cube };
}

double activate(double x, Activation a) {
  switch (a) {
    case Activation::Tanh:
      return std::tanh(x);
    case Activation::Softplus:
      return std::log1p(std::exp(x));
    case Activation::Square:
      return x * x;
    case Activation::Identity:
      break;
  }
  return x;
}

// Every case of activate and every norm, reached from one call.
double layer(const double* x, const double* w, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    Activation a = static_cast<Activation>(i % 4);
    s += w[i] * activate(x[i], a);
  }
  return s;
}
// VERIFY: layer

double norm_of(const double* r, int n, Norm norm) {
  double total = 0;
  for (int i = 0; i < n; ++i) {
    switch (norm) {
      default:
        total += r[i];
        break;
      case L2:
        total += r[i] * r[i];
        break;
      case Huber: {
        double a = std::fabs(r[i]);
        total += a < 0.5 ? 0.5 * a * a : 0.5 * (a - 0.25);
        break;
      }
    }
  }
  return norm == L2 ? std::sqrt(total) : total;
}
// VERIFY: norm_of ints=5,2
// VERIFY: norm_of ints=5,4
// VERIFY: norm_of ints=5,1

double stepper(double x, const double* w, int n) {
  double y = x;
  for (int i = 0; i < n; ++i) {
    switch (i % 5 + 1) {
      case 1:
      case 3:
        y += w[i] * x;
        break;
      case 2:
        if (y > 1) continue;
        y *= w[i];
        break;
      case 4:
        y = std::sin(y) + w[i];
        break;
      default:
        if (y < 0) return y * w[i];
    }
  }
  return y;
}
// VERIFY: stepper n=12

double volume(double size, physics::Body body) {
  double v = 0;
  switch (body) {
    case physics::Body::Sphere:
      v = 4.18879 * size * size * size;
      break;
    case physics::Body::Cube:
      v = size * size * size;
      break;
  }
  return v;
}
// VERIFY: volume ints=0
// VERIFY: volume ints=1
