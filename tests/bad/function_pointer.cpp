// ARGS: grad %s --fn f
// EXPECT: function_pointer.cpp:5:10: error: indirect calls are not supported
// EXPECT: note: call the function by name
double f(double x, double (*g)(double)) {
  return g(x) * x;
}
