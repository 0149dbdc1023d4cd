// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: member_call.cpp:12:45: error: a member function that is not const is called here on a struct that is not a local
// CHECK: note: copy the struct into a local and call the member function on that, or make it const
// A member function that is not const may change the object: followed on a local struct (a local
// per field), not yet on a parameter.
struct Counter {
  double total;
  double value() { return total; }
};

double f(double x, Counter c) {
  return x * static_cast<double>(c.total) * c.value();
}
