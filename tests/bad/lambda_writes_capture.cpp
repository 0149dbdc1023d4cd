// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: lambda_writes_capture.cpp:10:30: error: the lambda assigns to 'total', which it captures by reference
// CHECK: note: return the new value from the lambda and assign it at the call
// CHECK: lambda_writes_capture.cpp:12:18: error: this call of a lambda is not supported
// CHECK: note: name the lambda by a local (auto f = [...](...) { ... };) and call it by that name
// A lambda becomes a function taking its captures as values: one that changes a captured scalar
// would change its own copy.
double f(double x) {
  double total = 0;
  auto add = [&](double v) { total += v * v; };
  add(x);
  return total + [](double v) { return v; }(x);
}
