// Local variables of struct type, as physics code keeps vectors: built from a braced list, copied
// from a parameter or another local, value-initialized, assigned field by field.
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

inline auto adjoint_fields(Vec3& v) { return std::tie(v.x, v.y, v.z); }
