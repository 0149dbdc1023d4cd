// ARGS: grad %s --fn f
// EXPECT: variadic_function.cpp:6:1: error: variadic function 'sum' cannot be differentiated
// EXPECT: note: give the function a fixed list of parameters
#include <cstdarg>

double sum(int n, ...) {
  va_list args;
  va_start(args, n);
  double s = 0;
  for (int i = 0; i < n; ++i) s += va_arg(args, double);
  va_end(args);
  return s;
}
double f(double x, double y) { return sum(2, x, y) * x; }
