// ARGS: grad %s --fn f
// EXPECT: increment_in_expression.cpp:8:12: error: ++ and -- inside an expression are not supported
// EXPECT: note: write the increment as a statement of its own
double f(const double* x, int n) {
  double s = 0;
  int i = 0;
  while (i < n)
    s += x[i++];
  return s;
}
