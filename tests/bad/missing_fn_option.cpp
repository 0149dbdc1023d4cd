// ARGS: jvp %s
// EXPECT: must be specified at least once
double f(double x) { return x * x; }
