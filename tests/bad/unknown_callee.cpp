// ARGS: grad %s --fn f
// EXPECT: unknown_callee.cpp:6:29: error: call to 'opaque', whose body Adjoint cannot see
// EXPECT: note: define it in this translation unit, give it a derivative rule (namespace adjoint::rules, see adjoint/rules.h), or mark it ADJOINT_NONDIFFERENTIABLE
double opaque(double);

double f(double x) { return opaque(x) * x; }
