// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: member_call.cpp:9:31: error: member function calls (including virtual calls) are not supported
// CHECK: note: call a free function instead
struct Model {
  virtual double eval(double x) const { return x * x; }
};
double f(double x) {
  Model m;
  return x + static_cast<int>(m.eval(x));
}
