// ?:, && and || whose operands need statements before them: calls that are inlined (returning a
// struct, assigning through a reference, methods and function objects on local structs), an
// assignment inside the expression, a std::accumulate. Those statements run only where the
// forward evaluates the operand: the other side of the guard is never computed, which is what
// keeps it in bounds or away from sqrt of a negative.
#include <cmath>
#include <numeric>
#include <vector>

struct Vec2 {
  double x, y;
  double length() const { return std::sqrt(x * x + y * y); }
  void stretch(double s) {
    x *= s;
    y /= s;
  }
};

static Vec2 rotate(Vec2 v, double a) {
  return {v.x * std::cos(a) - v.y * std::sin(a), v.x * std::sin(a) + v.y * std::cos(a)};
}
static double norm(Vec2 v) { return std::sqrt(v.x * v.x + v.y * v.y); }

// A struct-returning call on one side, another on the other; one on the right of || (the left
// true skips it).
double turned(double a, double b) {
  Vec2 v{a, b};
  double t = a > 1.0 ? norm(rotate(v, b)) : -norm(v);
  return (b < 1.2 || rotate(v, a).y > 0.3) ? t * a : t;
}
// VERIFY: turned

// sqrt of a value that is negative where the guard is false: computed on the guarded side only.
static double root_part(double x, double& rest) {
  double r = std::sqrt(x - 1.0);
  rest = x - r * r;
  return r;
}

double guarded_root(double x, double y) {
  double rest = 0;
  double r = x > 1.0 ? root_part(x, rest) : -x;
  return r * y + rest;
}
// VERIFY: guarded_root lo=0 hi=2

// An assignment inside the right of &&, a sum under ?:, a pointer step under ?:.
double halved_sum(const std::vector<double>& x, const double* p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  double t = s > 2.5 && (s *= 0.5) > 1.0 ? s : x[0];
  const double* q = p;
  double u = t > 1.2 ? *q++ * std::accumulate(x.begin(), x.end(), 0.0) : t;
  return u + *q;
}
// VERIFY: halved_sum n=4 length=4

// A method that changes its object and a const one under ?:, in a loop: each iteration takes
// one side, its values saved for the reverse.
double stretched(const double* x, int n, double s) {
  double total = 0;
  for (int i = 0; i + 1 < n; ++i) {
    Vec2 v{x[i], x[i + 1]};
    total += x[i] > 1.0 ? v.length() : (v.stretch(s), v.x * v.y);
  }
  return total;
}
// VERIFY: stretched n=6
