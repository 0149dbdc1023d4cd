// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: inline_asm.cpp:6:3: error: inline assembly cannot be differentiated
// CHECK: note: move it into a function with a custom derivative
double f(double x) {
  double y = x;
  asm volatile("" ::: "memory");
  return y * x;
}
