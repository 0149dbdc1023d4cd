// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: lambda_writes_capture.cpp:[[@LINE+8]]:18: error: this call of a lambda is not supported
// CHECK: note: name the lambda by a local (auto f = [...](...) { ... };) and call it by that name
// A lambda called where it is written has no name to call it by. (One that assigns to what it
// captures by reference is inlined: tests/numerical/lambdas.cpp.)
double f(double x) {
  double total = 0;
  auto add = [&](double v) { total += v * v; };
  add(x);
  return total + [](double v) { return v; }(x);
}
