// ARGS: grad %s --fn f
// EXPECT: global_state.cpp:6:37: error: global variable 'scale' is not supported
// EXPECT: note: pass it as a parameter, or make it a constant
double scale = 2.0;

double f(double x) { return x * x * scale; }
