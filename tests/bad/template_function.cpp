// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn square -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: template_function.cpp:4:1: error: 'square' is a function template: name an instantiation
// CHECK: note: instantiated here: --fn square<double>, square<float>
template <class T>
T square(T x) {
  return x * x;
}
double uses(double x, float y) { return square(x) + square(y); }
