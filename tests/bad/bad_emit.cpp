// ARGS: grad %s --fn f --emit=bitcode
// EXPECT: error: --emit must be 'source' or 'ir'
double f(double x) { return x * x; }
