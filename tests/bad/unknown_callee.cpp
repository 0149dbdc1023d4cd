// ARGS: grad %s --fn f
// EXPECT: unknown_callee.cpp:6:29: error: call to 'opaque', whose body Adjoint cannot see
// EXPECT: note: define it in this translation unit, or give it a custom derivative
double opaque(double);

double f(double x) { return opaque(x) * x; }
