// ARGS: grad %s --fn f
// EXPECT: return_in_loop.cpp:8:17: error: return inside a loop is not supported
// EXPECT: note: break out of the loop and return after it
double f(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += x[i];
    if (s > 10) return s;
  }
  return s * 2;
}
