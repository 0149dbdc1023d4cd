// RUN: rm -rf %t && mkdir %t && not %adjoint jvp %s --fn table -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: no_floating_parameter.cpp:4:8: error: 'table' has no float or double parameter to differentiate
// CHECK: note: Adjoint differentiates with respect to float and double parameters
double table(int i) { return 0.5 * i * i; }
