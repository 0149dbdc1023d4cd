// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn Chain::energy -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: member_function.cpp:6:3: error: 'Chain::energy' is a member function, which Adjoint does not differentiate yet
// CHECK: note: write it as a free function taking the object's fields
struct Chain {
  double k;
  double energy(double x) const { return k * x * x; }
};
