// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: struct_pointer_field.cpp:6:3: error: field 'data' of 'Buffer' is not a scalar
// CHECK: note: Adjoint differentiates structs of float, double, integer and bool fields
struct Buffer {
  int size;
  double* data;
};

double f(const Buffer& b, double x) { return x * b.size; }
