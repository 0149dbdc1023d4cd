// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: lambda.cpp:5:3: error: lambdas are not supported in differentiated code
// CHECK: note: write the lambda as a function of its own
double f(double x) {
  auto sq = [](double v) { return v * v; };
  return sq(x);
}
