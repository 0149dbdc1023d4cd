// Structs passed whole between functions, the way geometry and integrator code is written: local
// structs passed by value and by reference, structs returned by value, member functions called on
// local objects, helpers that return several results through references. Adjoint inlines these
// calls, so that every field is differentiated as the scalar it is.
#include <cmath>
#include <tuple>

struct Vec2 {
  double x, y;
};

Vec2 rotate(Vec2 v, double angle) {
  double c = std::cos(angle), s = std::sin(angle);
  return {c * v.x - s * v.y, s * v.x + c * v.y};
}

Vec2 add(const Vec2& a, const Vec2& b) { return Vec2{a.x + b.x, a.y + b.y}; }

double dot(const Vec2& a, const Vec2& b) { return a.x * b.x + a.y * b.y; }

// A struct returned by value and passed on; a call's field read directly.
double rotated_energy(const double* p, double angle, double k) {
  Vec2 v{p[0], p[1]};
  Vec2 w = rotate(v, angle);
  Vec2 sum = add(w, v);
  double c = 0.5 * k * dot(sum, w);
  return c + rotate(w, 2 * angle).y * p[2];
}
// VERIFY: rotated_energy

// Several returns, the struct's value depending on the branch taken; and a return inside a loop.
Vec2 reflect_if_below(Vec2 v, double floor) {
  if (v.y >= floor) return v;
  Vec2 r = v;
  r.y = 2 * floor - v.y;
  return r;
}

double first_above(const double* xs, int n, double t) {
  for (int i = 0; i < n; ++i)
    if (xs[i] * t > 1) return xs[i] * xs[i] * t;
  return t;
}

double bounces(const double* ys, int n, double floor, double t) {
  double e = 0;
  for (int i = 0; i < n; ++i) {
    Vec2 v = {0.5 * i, ys[i]};
    Vec2 r = reflect_if_below(v, floor);
    e += r.y * r.y + r.x * ys[i];
  }
  Vec2 last{first_above(ys, n, t), t};
  return e + dot(last, last);
}
// VERIFY: bounces n=6

// An integrator whose state is a struct: each step takes the state by value and returns the next.
struct State {
  double position, velocity;
};

State step(State s, double dt, double stiffness) {
  double force = -stiffness * std::sin(s.position);
  State next = s;
  next.velocity += dt * force;
  next.position += dt * next.velocity;
  return next;
}

double integrate(double x0, double v0, double stiffness, int steps) {
  State s{x0, v0};
  for (int i = 0; i < steps; ++i) s = step(s, 0.1, stiffness);
  return s.position * s.position + 0.5 * s.velocity * s.velocity;
}
// VERIFY: integrate ints=6

// Member functions on a local object: a const method calling another through `this`, one
// reading an array through a pointer, one returning a struct.
struct Spring {
  double k, rest;
  double stretch(double length) const { return length - rest; }
  double energy(double length) const { return 0.5 * k * stretch(length) * this->stretch(length); }
  double chain(const double* p, int n) const {
    double e = 0;
    for (int i = 0; i + 1 < n; ++i) e += energy(p[i + 1] - p[i]);
    return e;
  }
  Vec2 force_and_energy(double length) const { return {-k * stretch(length), energy(length)}; }
};

double springs(const double* p, int n, double k) {
  Spring s{k, 0.25};
  Spring stiff = s;
  stiff.k *= 3;
  Vec2 fe = stiff.force_and_energy(p[0]);
  return s.chain(p, n) + stiff.energy(p[1]) + fe.x * fe.y;
}
// VERIFY: springs n=5

// Member functions that change their object, on local structs: a time step updating the state
// in place (its argument reads the field it changes), one calling another through `this`, one
// returning a value, and a const one reading the result.
struct Oscillator {
  double x, v;
  double damping = 0.1;
  void kick(double f, double dt) { v += dt * (f - damping * v); }
  void step(double f, double dt) {
    kick(f, dt);
    x += dt * v;
  }
  double settle(double rate) {
    double before = x;
    x *= rate;
    this->v *= rate;
    return before - x;
  }
  void shift(double f) {
    v *= 0.5;
    x += f;
  }
  double energy() const { return 0.5 * v * v + 1 - std::cos(x); }
};

double oscillate(const double* forces, int n, double x0, double dt) {
  Oscillator o{x0, 0.0};
  for (int i = 0; i < n; ++i) o.step(forces[i] - std::sin(o.x), dt);
  double lost = o.settle(0.9);
  Oscillator copy = o;
  copy.kick(copy.v + copy.x, dt);
  copy.shift(copy.v);  // (f is v as it was before the call)
  return o.energy() + lost + copy.v + copy.x;
}
// VERIFY: oscillate n=5

// Helpers that return through references: scalar outputs, an in/out accumulator, an element of
// an array, and a local struct updated in place.
void to_polar(double x, double y, double& radius, double& angle) {
  radius = std::sqrt(x * x + y * y);
  angle = std::atan2(y, x);
}

void add_squared(double& total, double v) { total += v * v; }

void kick(State& s, double impulse) {
  s.velocity += impulse / (1 + s.position * s.position);
  s.position *= 0.5;
}

double through_references(double* out, const double* in, int n) {
  double total = 0;
  State s{in[0], in[1]};
  for (int i = 0; i < n; ++i) {
    double r = 0, a = 0;
    to_polar(in[i], 1 + 0.1 * i, r, a);
    add_squared(total, r * a);
    add_squared(out[i], a);
    kick(s, r);
  }
  return total + s.position * s.velocity;
}
// VERIFY: through_references n=4

inline auto adjoint_fields(Vec2& v) { return std::tie(v.x, v.y); }
