// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: enum_not_declarable.cpp:7:20: error: the generated header cannot declare enumeration 'Shape': it has no fixed underlying type
// CHECK: note: give it one (enum Shape : int { ... }), or make it a scoped enum (enum class Shape)
// An unscoped enumeration without a fixed underlying type cannot be declared without its
// enumerators, which the header of f_grad would need.
enum Shape { Round, Square };
double f(double x, Shape s) { return s == Round ? x * x : x; }
