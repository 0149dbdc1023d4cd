// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: exceptions.cpp:5:3: error: exceptions are not supported in differentiated code
// CHECK: note: report errors through return values
double f(double x) {
  try {
    x = x * 2;
  } catch (...) {
  }
  return x;
}
