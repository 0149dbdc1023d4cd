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
