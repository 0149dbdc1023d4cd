// Heads of loops and ifs as people write them. Loops whose heads need statements run first on
// every iteration: a condition calling a function that is inlined (a lambda assigning a capture, a
// function returning a struct, a method of a local struct, an algorithm), an assignment inside the
// condition (`while (n-- > 0)`), a variable declared in it, a step of several expressions
// (`++i, --j`) or one calling an inlined function, several counters declared in the head. Ifs with
// an initializer, a condition variable, `if constexpr` in a template.
#include <cmath>
#include <numeric>
#include <type_traits>
#include <vector>

struct Point {
  double x, y;
};

static Point advance(Point p, double h) { return {p.x + h * p.y, p.y - h * p.x}; }

// A while loop over a state: its condition reads a struct returned by a call.
double orbit_until(double x, double y, double h) {
  Point p{x, y};
  int steps = 0;
  while (advance(p, h).x > 0 && steps < 40) {
    p = advance(p, h);
    ++steps;
  }
  return p.x * p.x + 3 * p.y + steps;
}
// VERIFY: orbit_until x=0.9..1.6 y=0.1..0.9 h=0.05..0.2

struct Spring {
  double k, rest;
  double energy(double length) const { return 0.5 * k * (length - rest) * (length - rest); }
};

// The condition calls a const method of a local struct (inlined: its object is a local).
double relax(double k, double x0) {
  Spring s{k, 1.0};
  double x = x0;
  int guard = 0;
  while (s.energy(x) > 1e-3 && guard++ < 50) x = x - 0.3 * (x - s.rest);
  return x * k + guard;
}
// VERIFY: relax k=0.5..2 x0=1.5..3

// Counting down in the condition; the body reads the count.
double count_down(const double* a, int n) {
  double s = 0;
  int i = n;
  while (i-- > 0) s += a[i] * a[i] * (i + 1);
  return s;
}
// VERIFY: count_down n=6

// The condition is an algorithm over a vector the body shrinks.
double shrink_until(const std::vector<double>& v, double limit) {
  std::vector<double> w = v;
  int rounds = 0;
  while (std::accumulate(w.begin(), w.end(), 0.0) > limit && rounds < 30) {
    for (double& e : w) e *= 0.8;
    ++rounds;
  }
  return std::accumulate(w.begin(), w.end(), 0.0) * limit;
}
// VERIFY: shrink_until length=5 limit=1..2

// A lambda assigning a captured scalar, called in a for condition, with continue in the body.
double lambda_condition(const double* a, int n) {
  double taken = 0;
  auto take = [&](int k) {
    taken += a[k];
    return k;
  };
  double s = 0;
  for (int i = 0; take(i) < n - 1; ++i) {
    if (a[i] < 0.9) continue;
    s += a[i] * taken;
  }
  return s + taken;
}
// VERIFY: lambda_condition n=6

// Two counters walking towards each other: declared in the head, stepped by a comma.
double mirrored(const double* a, int n) {
  double s = 0;
  for (int i = 0, j = n - 1; i < j; ++i, --j) s += a[i] * a[j];
  return s;
}
// VERIFY: mirrored n=7

// The step advances the state through a function that returns a struct.
double march(double x, double y, double h) {
  double path = 0;
  for (Point p{x, y}; p.x > 0 && path < 20; p = advance(p, h)) path += std::sqrt(p.x * p.x + p.y * p.y) * h;
  return path;
}
// VERIFY: march x=0.5..1.5 y=0.2..0.8 h=0.05..0.2

// do-while whose condition calls an inlined function.
double bisect(double lo, double hi, double target) {
  Point bracket{lo, hi};
  int rounds = 0;
  do {
    double mid = 0.5 * (bracket.x + bracket.y);
    if (mid * mid * mid > target)
      bracket.y = mid;
    else
      bracket.x = mid;
    ++rounds;
  } while (advance(bracket, 0.0).y - bracket.x > 1e-3 && rounds < 60);
  return 0.5 * (bracket.x + bracket.y) + rounds;
}
// VERIFY: bisect lo=0..0.5 hi=2..3 target=1..5

// A while loop declaring its condition's variable.
double halvings(double x, int budget) {
  double y = x;
  while (int left = budget--) y = y * 0.5 + left * 1e-2 * y * x;
  return y;
}
// VERIFY: halvings budget=5

// if with an initializer, and an if declaring its condition's variable.
double clipped(const double* a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (double d = a[i] - 1.0; d > 0)
      s += d * d * a[i];
    else
      s -= d * a[i];
    if (int k = i % 3) s += k * a[i];
  }
  return s;
}
// VERIFY: clipped n=8

// if constexpr on the element type, in a template instantiated for double and float.
template <class T>
T weighted_norm(const T* v, int n) {
  T s = 0;
  for (int i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, float>)
      s += v[i] * v[i] * 2.0f;
    else
      s += v[i] * v[i] * i;
  }
  return std::sqrt(s);
}

double norms(const double* v, const float* w, int n) { return weighted_norm(v, n) * weighted_norm(w, n); }
// VERIFY: norms n=5

// Assignments inside a loop's condition and step: the value read is the one the program reads.
double post_increments(const double* x, int n) {
  double s = 0;
  int i = 0;
  while (i++ < n) s += x[i - 1] * x[i - 1];
  for (int k = 0; k < n; s += x[k++] * s) {
  }
  for (int j = 0; j < n; ++j, s *= 0.5) s += x[j];
  return s;
}
// VERIFY: post_increments n=6

// A for loop declaring its condition's variable: the loop runs while it is nonzero.
double countdown_weights(const double* x, int n) {
  double s = 0;
  for (int i = 0; int left = n - i; ++i) s += x[i] * x[i] * left;
  return s;
}
// VERIFY: countdown_weights n=7

// A condition calling a function that assigns the caller's variable through a reference.
static double split(double x, double& high) {
  high = x * x;
  return x - high;
}

double split_until(double x, double h) {
  int rounds = 0;
  while (split(x, h) < 0.2 && rounds < 30) {
    x *= 0.8;
    ++rounds;
  }
  return x * h + rounds;
}
// VERIFY: split_until x=0.3..2.5 h=-1..1
