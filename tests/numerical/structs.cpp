// Structs of floating fields, by value and by const reference; the adjoint of `S p` is `S* p_bar`.
#include <cmath>
#include <tuple>

struct Body {
  double mass;
  double x, y;
  int id;
};

struct Spring {
  double stiffness;
  double rest;
};

double spring_energy(Body a, const Body& b, const Spring& s) {
  double dx = a.x - b.x, dy = a.y - b.y;
  double stretch = std::sqrt(dx * dx + dy * dy) - s.rest;
  return 0.5 * s.stiffness * stretch * stretch + 0.1 * (a.mass + b.mass) * (a.id + b.id);
}
// VERIFY: spring_energy

static double kinetic(const Body& b, double vx, double vy) { return 0.5 * b.mass * (vx * vx + vy * vy); }

double total_energy(Body a, const Body& b, const Spring& s, double va, double vb) {
  return spring_energy(a, b, s) + kinetic(a, va, 0.3) + kinetic(b, 0.2, vb);
}
// VERIFY: total_energy

float float_fields(const Spring& s, float t) {
  float k = static_cast<float>(s.stiffness);
  return k * t * t + static_cast<float>(s.rest) * t;
}
// VERIFY: float_fields

// How the verifier (adjoint/verify.h) reaches the floating fields of the structs above.
inline auto adjoint_fields(Body& b) { return std::tie(b.mass, b.x, b.y); }
inline auto adjoint_fields(Spring& s) { return std::tie(s.stiffness, s.rest); }

// Const member functions, called on struct parameters: each is differentiated with the object
// as its first parameter.
struct Chain {
  double k, rest;
  double bond(double x, double y) const { return 0.5 * k * (y - x - rest) * (y - x - rest); }
  double energy(const double* p, int n) const {
    double e = 0;
    for (int i = 0; i + 1 < n; ++i) e += bond(p[i], p[i + 1]);
    return e + this->rest * 0.01;
  }
};

double chain_energy(const Chain& c, const double* p, int n, double scale) { return scale * c.energy(p, n); }
// VERIFY: chain_energy
// The member function itself, as the function to differentiate: Chain_energy_grad(self, p, n,
// self_bar, p_bar).
// VERIFY: Chain::energy n=6

// A member function defined outside its struct, in a namespace, calling a free function.
namespace physics {
struct Pendulum {
  double length, mass;
  double energy(double theta, double omega) const;
};
double height(double length, double theta) { return length * (1 - std::cos(theta)); }
double Pendulum::energy(double theta, double omega) const {
  return 0.5 * mass * length * length * omega * omega + mass * 9.81 * height(length, theta);
}
// found by argument-dependent lookup, in the struct's namespace
inline auto adjoint_fields(Pendulum& p) { return std::tie(p.length, p.mass); }
}  // namespace physics
// VERIFY: physics::Pendulum::energy

inline auto adjoint_fields(Chain& c) { return std::tie(c.k, c.rest); }

// An array of doubles viewed as points (three doubles each, no padding), as particle codes keep
// positions: p[i].y is pos[3 * i + 1]; a whole point is copied, reassigned and stored back.
struct Point {
  double x, y, z;
};

double bending_energy(const double* pos, double* moved, int n, double k) {
  const Point* p = reinterpret_cast<const Point*>(pos);
  Point* out = reinterpret_cast<Point*>(moved);
  double e = 0;
  for (int i = 1; i + 1 < n; ++i) {
    Point a = p[i - 1], c = p[i + 1];
    Point mid = {0.5 * (a.x + c.x), 0.5 * (a.y + c.y), 0.5 * (a.z + c.z)};
    double dx = p[i].x - mid.x, dy = p[i].y - mid.y, dz = p[i].z - mid.z;
    e += k * (dx * dx + dy * dy + dz * dz);
    out[i] = mid;
    mid = {mid.y, mid.x, std::sin(mid.z)};
    e += out[i].x * mid.z;
  }
  return e;
}
// VERIFY: bending_energy n=5
