// Branches, loops of every kind, break, continue, early return.
#include <cmath>

double branch(double x, double y) {
  double r;
  if (x > y) {
    r = x * x;
  } else if (x > 0.9) {
    r = std::sin(y);
  } else {
    r = x * y;
  }
  return r * x;
}
// VERIFY: branch

double branch_on_updated(double x, int n) {
  double v = x;
  for (int i = 0; i < n; ++i) {
    if (v < 2) v = v * 1.5;
    else v = std::sqrt(v);
  }
  return v;
}
// VERIFY: branch_on_updated n=7

double early_return(double x, double y) {
  if (x > 1.2) return x * y;
  double t = x + y;
  if (t > 2) {
    return std::exp(t);
  }
  return t * t;
}
// VERIFY: early_return

double while_loop(double x) {
  double v = x;
  int steps = 0;
  while (v < 100) {
    v = v * v + 1;
    steps += 1;
  }
  return v / (steps + 1);
}
// VERIFY: while_loop

double do_while(double x, int n) {
  double v = x;
  int k = 0;
  do {
    v = std::sin(v) + x;
    ++k;
  } while (k < n);
  return v;
}
// VERIFY: do_while n=5

double loop_break(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (s > 3) break;
    s += x[i] * x[i];
  }
  return s;
}
// VERIFY: loop_break n=20

double loop_continue(const double* x, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i) {
    if (x[i] < 1.0) {
      continue;
    }
    s *= x[i];
  }
  return s;
}
// VERIFY: loop_continue n=10

double nested_loops(const double* a, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double row = 0;
    for (int j = 0; j < m; ++j) row += a[i * m + j] * a[j];
    s += std::tanh(row);
  }
  return s;
}
// VERIFY: nested_loops ints=5,4

double decreasing_loop(const double* x, int n) {
  double v = 1;
  for (int i = n - 1; i >= 0; --i) v = v * x[i] + 1;
  return v;
}
// VERIFY: decreasing_loop n=6

double inclusive_loop(const double* x, int n) {
  double v = 0;
  for (int i = 1; i <= n; i++) v += x[i] / i;
  return v;
}
// VERIFY: inclusive_loop n=6

double float_step_loop(double x, double t_end) {
  double y = x;
  for (double t = 0; t < t_end; t += 0.25) y = y + 0.25 * (-y * y + t);
  return y;
}
// VERIFY: float_step_loop

double while_in_for(const double* x, int n) {
  double total = 0;
  for (int i = 0; i < n; ++i) {
    double v = x[i];
    int k = 0;
    while (k < i + 1) {
      v = v * 0.9 + 0.1 * x[k];
      ++k;
    }
    total += v * v;
  }
  return total;
}
// VERIFY: while_in_for n=5

double break_in_while(double x) {
  double v = x;
  while (true) {
    v = v * 1.3;
    if (v > 10) {
      v = v - 1;
      break;
    }
  }
  return v * x;
}
// VERIFY: break_in_while

double return_in_loop(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += x[i] * x[i];
    if (s > 3) return s * x[i];
  }
  return s * 2;
}
// VERIFY: return_in_loop n=20

double return_in_nested_loops(const double* x, int n) {
  double p = 1;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      p *= 1 + 0.1 * x[i] * x[j];
      if (p > 50) return std::log(p) + x[j];
    }
  }
  return p;
}
// VERIFY: return_in_nested_loops n=6

void void_return_in_loop(const double* x, double* y, int n) {
  for (int i = 0; i < n; ++i) {
    y[i] = std::sin(x[i]) * 2;
    if (y[i] > 1.5) return;
  }
}
// VERIFY: void_return_in_loop n=12

double partial_jumps(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += x[i];
    if (s > 1) {
      if (x[i] > 1.3) break;
      double t = s * x[i];
      s = t * 0.5;
    }
    if (x[i] < 0.8) {
      if (s < 0.3) continue;
      s *= 1.1;
    }
    s += 0.1 * x[i] * x[i];
  }
  return s;
}
// VERIFY: partial_jumps n=25

double do_while_jumps(double x, int n) {
  double v = x;
  int k = 0;
  do {
    ++k;
    if (v > 5) continue;
    v = v * 1.2 + std::sin(v);
    if (v > 9) break;
  } while (k < n);
  return v * x;
}
// VERIFY: do_while_jumps n=30
