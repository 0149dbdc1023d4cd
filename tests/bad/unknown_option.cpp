// ARGS: grad %s --fn f --frobnicate
// EXPECT: Unknown command line argument '--frobnicate'
double f(double x) { return x * x; }
