// Minimized from failures that random-program testing (tests/random) found; each stays fixed.
#include <cmath>

// `v += e(v)`: the partials of e read v's adjoint, so it must be taken before it changes.
double accumulate_self(double b) {
  b += std::pow(1.25 + std::tanh(b) * std::tanh(b), 0.75);
  return b * b;
}
// VERIFY: accumulate_self

// A parameter outside --wrt that the body assigns from one inside carries derivatives too.
double param_outside_wrt(double x, double y) {
  y = y * x + std::sin(x);
  return y * y;
}
// VERIFY: param_outside_wrt wrt=x

// The same inside a callee whose pullback differentiates only v (u is a constant at the call).
static double mix(double u, double v) {
  u = u * v;
  v = std::sin(u);
  return u + v;
}
double callee_param_outside_wrt(double v) { return mix(0.5, v); }
// VERIFY: callee_param_outside_wrt

// A parameter overwritten before it is read: its old value has no derivative, and the generated
// code must not keep the dead assignment (g++ warns about a parameter set but not used).
static double overwritten(double u, double v) {
  u = 1.25;
  return u + std::cos(v);
}
double calls_overwritten(double v) { return overwritten(v, v) * v; }
// VERIFY: calls_overwritten

// A loop with a continue, inside an if: the jump structuring must reach loops nested in ifs.
double loop_with_continue_in_if(const double* x, int n, double a) {
  if (a > 0.1) {
    for (int i = 0; i < n; ++i) {
      if (i % 2 == 0) continue;
      a += x[i] * a;
    }
  }
  return a * a;
}
// VERIFY: loop_with_continue_in_if

// An array element written in a loop whose other elements the same loop reads: writing w[i3]
// must be taped, since an earlier iteration's adjoint reads w[(i3 + 2) % 8].
double element_overwrites(const double* x, int n, double a, double b) {
  double w[8] = {a, b, x[0], x[1], a * b, 0.5, x[2], 1.0};
  for (int i3 = 0; i3 < n; ++i3) {
    w[i3] = std::atan(b);
    w[(i3 + 3) % 8] = std::tanh((1.25 - b) * (0.75 * w[(i3 + 2) % 8]));
  }
  return b + 0.125 * w[6];
}
// VERIFY: element_overwrites

// Two locals of one name in different scopes of a helper, one of them dead once the copy of the
// helper in the generated file drops the stores nothing reads: the copy kept `t = 0.5` and left
// a variable set but not used (an error under -Werror). Found by random testing, batch 600004.
double shadowed_locals([[maybe_unused]] double u, double v) {  // (u is set, never read)
  if (v > 10.0) {
    double t = 2.0;
    v = t / (1.5 + t * t);
  }
  for (int i = 2; i >= 0; --i) {
    double t = std::tanh(v);
    t = 0.5;
    u += 0.125 * std::sin(t);
  }
  return std::sin(v);
}
double calls_shadowed_locals(double x) { return shadowed_locals(x, x * x) * x; }
// VERIFY: calls_shadowed_locals

// A call's result computed in a loop and read only by a guard of the forward (a ?: whose branch
// the reverse takes from its tape): taped and popped per iteration, it was declared from its tape
// in the iteration's reverse and never read there (unused variable, an error under -Werror). What
// no reverse iteration reads is not taped now. Found by random testing, batch 223007.
double loop_guard_helper(double u, double v) { return u * v + 1.0; }
double loop_result_in_guard(double a, double b) {
  int k = 0;
  while (k < 3 && b > -10.0) {
    double v = ((loop_guard_helper(std::sin(b), std::cos(b)) < b - a * a ? loop_guard_helper(3.0, 2.0) : 3.0) * b);
    b -= 0.25;
    a += 0.125 * std::sin(v);
    ++k;
  }
  return a * b;
}
// VERIFY: loop_result_in_guard

// A called function with a local named `result`: its pullback's parameter for the adjoint of the
// result was `result_bar`, which the local's adjoint then redeclared (the generated code did not
// compile). The parameter takes a name of its own now (result_2_bar).
double with_result_local(double x) {
  double result = x * std::sin(x);
  return result;
}
double calls_result_local(double x, double y) { return with_result_local(x * y) + y; }
// VERIFY: calls_result_local

// A value an if chooses (a call under ?:) in a loop that changes what the chosen branch reads:
// it was recomputed at the top of the iteration's reverse, from `a` as the iteration left it,
// not as the iteration found it. Only a choice whose assignments read nothing the loop changes
// is recomputed; this one is taped.
static double guarded_helper(double u, double v) {
  int k = 0;
  while (k < 3 && std::asinh(v) < 3.0) {
    v *= 0.75 + 0.25 * std::sin(u);
    k += 1;
  }
  return std::atan(v);
}
double choice_reads_loop_state(const double* x, int n, double a) {
  for (int i = 0; i < n; ++i) {
    double v1 = i % 2 == 0 ? guarded_helper(a * x[i], a) : a * x[i];
    a += 0.125 * std::sin(v1);
  }
  return a;
}
// VERIFY: choice_reads_loop_state
