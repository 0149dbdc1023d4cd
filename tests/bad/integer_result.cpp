// ARGS: grad %s --fn count_above
// EXPECT: integer_result.cpp:4:5: error: 'count_above' returns 'int' and writes no array, so it has no derivative
// EXPECT: note: differentiate a function that returns float or double, or writes its results through pointers
int count_above(const double* x, int n, double threshold) {
  int k = 0;
  for (int i = 0; i < n; ++i)
    if (x[i] > threshold) k += 1;
  return k;
}
