// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: lambda_captures_struct.cpp:11:35: error: the lambda captures the local struct 'p'
// CHECK: note: copy the fields it needs into scalars and capture those
// A local struct is a local per field: there is no whole struct for the lambda's function to take.
struct Pair {
  double u, v;
};

double f(double a) {
  Pair p{a, 2 * a};
  auto h = [&](double w) { return p.u * w; };
  return h(a);
}
