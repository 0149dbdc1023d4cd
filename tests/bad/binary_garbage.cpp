// ARGS: grad %s --fn f
// EXPECT: error:
double f(double x) { return x; }
\x00\x01 @@@ ### 
