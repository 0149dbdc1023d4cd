// ARGS: grad %s --fn f
// EXPECT: chained_assignment.cpp:6:7: error: assignment inside an expression is not supported
// EXPECT: note: write the assignment as a statement of its own
double f(double x) {
  double a, b;
  a = b = x * 2;
  return a * b;
}
