// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: reference_integer_output.cpp:6:20: error: reference type 'int &' is not supported
// CHECK: note: pass by value or const reference; by reference Adjoint takes float and double outputs, structs (const) and std::vector or std::array
// A floating scalar by reference is an output; an integer one (a counter the function reports)
// is not.
double f(double x, int& steps) {
  steps = 3;
  return x * x;
}
