// ARGS: grad %s --fn f --wrt x,n
// EXPECT: error: 'n' is not a floating-point parameter of 'f'
// EXPECT: note: --wrt takes names of float or double parameters
double f(double x, int n) { return x * n; }
