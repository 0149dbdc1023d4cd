// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: member_call.cpp:11:45: error: calls of member functions other than const, non-virtual ones are not supported
// CHECK: note: make the member function const (it may read the object's fields), or call a free function
// A member function that is not const may change the object: not followed yet.
struct Counter {
  double total;
  double value() { return total; }
};

double f(double x, Counter c) {
  return x * static_cast<double>(c.total) * c.value();
}
