// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// A call that writes into an array is inlined (its stores are then the caller's, saved and undone
// as the caller's own are); a recursive one cannot be.
// CHECK: recursive_array_writer.cpp:[[@LINE+5]]:3: error: 'halve' calls itself, and it is inlined (it writes into its array parameter 'v')
// CHECK: note: write the recursion as a loop
void halve(double* v, int n) {
  if (n <= 0) return;
  v[n - 1] *= 0.5;
  halve(v, n - 1);
}
double f(double* v, int n) {
  halve(v, n);
  return v[0] + v[1];
}
