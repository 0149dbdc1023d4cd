// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: unknown_callee.cpp:6:29: error: call to 'opaque', whose body Adjoint cannot see
// CHECK: note: define it in this translation unit, give it a derivative rule (namespace adjoint::rules, see adjoint/rules.h), or mark it ADJOINT_NONDIFFERENTIABLE
double opaque(double);

double f(double x) { return opaque(x) * x; }
