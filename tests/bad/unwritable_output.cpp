// ARGS: grad %s --fn f -o /nonexistent-dir/out.cpp
// EXPECT: error: cannot write '/nonexistent-dir/out.cpp'
double f(double x) { return x * x; }
