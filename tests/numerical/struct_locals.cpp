// Local variables of struct type, as physics code keeps vectors: built from a braced list, copied
// from a parameter or another local, value-initialized, assigned field by field, made by a
// constructor that initializes the fields from its parameters.
#include <cmath>
#include <tuple>

struct Vec3 {
  double x, y, z;
};

double bond_energy(const Vec3& a, const Vec3& b, double stiffness) {
  Vec3 d = {a.x - b.x, a.y - b.y, a.z - b.z};
  Vec3 mid = a;
  mid.x = 0.5 * (mid.x + b.x);
  mid.y += b.y;
  Vec3 zero{};
  zero.z = d.z * mid.x;
  Vec3 copy = d;
  double r = std::sqrt(copy.x * copy.x + copy.y * copy.y + copy.z * copy.z);
  return 0.5 * stiffness * (r - 1) * (r - 1) + 0.01 * (mid.y + zero.z + zero.x);
}
// VERIFY: bond_energy

// A local struct updated in a loop.
double trajectory(const double* forces, int n, double dt) {
  Vec3 position{}, velocity = {1, 0.5, 0};
  for (int i = 0; i < n; ++i) {
    velocity.x += dt * forces[i];
    velocity.y -= dt * velocity.x * 0.1;
    position.x += dt * velocity.x;
    position.y += dt * velocity.y;
  }
  return position.x * position.x + std::sin(position.y) + velocity.z;
}
// VERIFY: trajectory

// Structs with constructors: fields from the constructor's parameters (passed by value, by const
// reference, with a default argument), from constants and from default member initializers; a
// temporary passed to a function and one returned by it.
struct Particle {
  double mass;
  double x, v;
  double charge = 0.25;
  Particle(double m, const double& position, double velocity = 1.5) : mass(m), x(position), v(velocity) {}
};

struct Box {
  double lo, hi;
  Box() : lo(-1.0), hi(2.0) {}
  explicit Box(double half) : lo(-half), hi(half) {}
};

static double kinetic(Particle p) { return 0.5 * p.mass * p.v * p.v + p.charge * p.x; }
static Particle pushed(const Particle& p, double dt) { return Particle(p.mass, p.x + dt * p.v, p.v); }

double constructed_energy(double m, double x, double v, double dt) {
  Particle a(m, x * x, v);
  Particle b{m * 2.0, std::sin(x)};
  Particle c = pushed(a, dt);
  Box box;
  double inside = box.hi - c.x > 0 ? c.x - box.lo : box.hi;
  return kinetic(a) + kinetic(b) + kinetic(Particle(m, v)) + c.x * c.v + 0.1 * inside;
}
// VERIFY: constructed_energy

// An aggregate with default member initializers, its braced lists leaving fields out.
struct Spring {
  double k = 2.0;
  double rest = 0.5;
  double damping = 0.1;
};

double spring_energy(double stretch, double k) {
  Spring soft = {k}, stiff{};
  Spring tuned{k * k, stretch};
  return 0.5 * soft.k * (stretch - soft.rest) * (stretch - soft.rest) + stiff.k * stretch * tuned.rest +
         tuned.k * tuned.damping;
}
// VERIFY: spring_energy

inline auto adjoint_fields(Vec3& v) { return std::tie(v.x, v.y, v.z); }
