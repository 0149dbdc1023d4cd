// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn Chain::energy -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: member_function.cpp:7:3: error: 'Chain::energy' is a member function: Adjoint differentiates it where a function calls it
// CHECK: note: differentiate a function that calls it on a struct parameter (double f(const Chain& s, ...) { return s.energy(...); }), or write it as a free function
// A member function is differentiated as a callee (with its object first), not as --fn.
struct Chain {
  double k;
  double energy(double x) const { return k * x * x; }
};
