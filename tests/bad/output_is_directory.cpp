// ARGS: grad %s --fn f -o %dir
// EXPECT: error: cannot write
double f(double x) { return x * x; }
