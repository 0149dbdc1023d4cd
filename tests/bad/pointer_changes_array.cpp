// ARGS: grad %s --fn f
// EXPECT: pointer_changes_array.cpp:7:14: error: pointer 'p' must keep pointing into 'a'
// EXPECT: note: move a pointer with =, += and -= within the array it was initialized to point into
double f(const double* a, const double* b, int n) {
  const double* p = a;
  double s = p[0];
  if (n > 2) p = b + 1;
  return s + p[0] * p[1];
}
