// ARGS: grad %s --fn f
// EXPECT: in_place_callee.cpp:4:6: error: 'scale' both reads and writes its array parameter 'v'
// EXPECT: note: write the results to a separate output array
void scale(double* v, int n, double a) {
  for (int i = 0; i < n; ++i) v[i] *= a;
}
double f(double* v, int n, double a) {
  scale(v, n, a);
  return v[0] + v[1];
}
