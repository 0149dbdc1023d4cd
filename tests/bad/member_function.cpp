// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn energy -o %t/out.cpp 2>&1 | FileCheck %s --check-prefix=BARE && ls -A %t | count 0
// RUN: not %adjoint grad %s --fn Chain::stretch -o %t/out.cpp 2>&1 | FileCheck %s --check-prefix=MUTATING && ls -A %t | count 0
// BARE: member_function.cpp:[[@LINE+7]]:3: error: 'Chain::energy' is a member function
// BARE: note: name it with its struct: --fn Chain::energy
// MUTATING: member_function.cpp:[[@LINE+6]]:3: error: member function 'Chain::stretch' cannot be differentiated
// MUTATING: note: write it as a free function taking the object's fields as parameters
// A const member function is differentiated as --fn Struct::method; one that changes its object is not.
struct Chain {
  double k;
  double energy(double x) const { return k * x * x; }
  double stretch(double x) {
    k *= x;
    return k;
  }
};
