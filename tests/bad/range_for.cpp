// ARGS: grad %s --fn f
// EXPECT: range_for.cpp:7:3: error: a range-based for loop is not supported in a differentiated function
#include <vector>

double f(double x, int n) {
  double s = 0;
  for (int k : {1, 2, 3}) s += k * x * n;
  return s;
}
