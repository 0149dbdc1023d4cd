// ARGS: grad /nonexistent/model.cpp --fn f
// EXPECT: error: cannot read '/nonexistent/model.cpp'
double f(double x) { return x; }
