// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp -- -std=c++17 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: library_without_rule.cpp:6:51: error: 'std::clamp' comes from a system header and has no derivative rule
// CHECK: note: Adjoint differentiates the math library through its rules
#include <algorithm>

double f(double x, double lo, double hi) { return std::clamp(x, lo, hi) * x; }
