// ARGS: grad %s --fn f
// EXPECT: syntax_error.cpp:5:15: error: expected ';' after return statement
double f(double x) {
  double y = x * 2;
  return y * x
}
