// ARGS: grad %s --fn f
// EXPECT: for_condition_variable.cpp:6:19: error: a variable declared in a for condition is not supported
// EXPECT: note: declare it before the loop, or in the loop body
double f(const double* x, int n) {
  double s = 0;
  for (int i = 0; int left = n - i; ++i) s += x[i] * left;
  return s;
}
