// ARGS: grad %s --fn f
// EXPECT: partial_jump.cpp:7:5: error: a break, continue or return that not every path of this if takes, followed by more code, is not supported
double f(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += x[i];
    if (s > 1) {
      if (x[i] > 2) break;
      s *= 2;
    }
    s += 1;
  }
  return s;
}
