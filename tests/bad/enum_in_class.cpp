// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: enum_in_class.cpp:8:20: error: enumeration 'Model::Kind' is declared inside a class or function
// CHECK: note: declare the enumeration at namespace scope
struct Model {
  enum class Kind { Linear, Cubic };
};

double f(double x, Model::Kind k) { return k == Model::Kind::Cubic ? x * x * x : x; }
