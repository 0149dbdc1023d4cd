// ARGS: grad %s --fn f
// EXPECT: long_double.cpp:4:10: error: long double is not supported
// EXPECT: note: use double
double f(long double x) { return static_cast<double>(x * x); }
