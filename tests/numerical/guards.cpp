// Calls under ?:, && and || run only where the forward runs them: their guard keeps them in
// bounds, away from NaN, or out of an endless recursion (the pullbacks and tangents too).
#include <cmath>

static double get(const double* a, int i) { return a[i]; }
static double root(double x) { return std::sqrt(x); }

// At i >= n, get(a, i) reads past the end of a: only the branch that is taken may call it.
double guarded_read(const double* a, int i, int n, double x) {
  double s = i < n ? get(a, i) * get(a, i) : x;
  return s * x;
}
// VERIFY: guarded_read ints=3,5 length=5
// VERIFY: guarded_read ints=5,5 length=5

// root(x) is NaN for x < 0, where the other branch is taken: the gradient is -1 there.
double guarded_root(double x) { return x > 0 ? root(x) : -x; }
// VERIFY: guarded_root lo=0.5 hi=2
// VERIFY: guarded_root lo=-2 hi=-0.5

// && and ||: the right side runs only when the left one does not decide.
double guarded_logical(const double* a, int i, int n, double x) {
  bool inside = i < n && get(a, i) > 0.5;
  bool either = i >= n || root(x) > 1.2;
  double s = inside ? get(a, i) * x : x * x;
  return either ? s * root(x) : s;
}
// VERIFY: guarded_logical ints=2,4 length=4 lo=0.5 hi=1.5
// VERIFY: guarded_logical ints=4,4 length=4 lo=0.5 hi=1.5
// VERIFY: guarded_logical ints=2,4 length=4 lo=1.5 hi=3

// The recursion ends because the call sits in the branch n != 0.
static double power(double x, int n) { return n == 0 ? 1.0 : x * power(x, n - 1); }
double recursive_power(double x, int n) { return power(x, n) + power(x, n / 2); }
// VERIFY: recursive_power ints=5
