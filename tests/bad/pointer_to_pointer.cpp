// ARGS: grad %s --fn f
// EXPECT: pointer_to_pointer.cpp:3:10: error: type 'const double **' is not supported
double f(const double** rows, int n) { return rows[0][0] * n; }
