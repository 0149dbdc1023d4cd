// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: bad_alias.cpp:8:1: error: 'warp_aliases' names other names of 'warp', which has no derivative rule
// CHECK: note: declare the rules of warp first, and list its other names as strings: {"warpf"}
double warp(double x);
float warpf(float x);

namespace adjoint::rules {
inline constexpr const char* warp_aliases[] = {"warpf"};
}  // namespace adjoint::rules

double f(double x) { return warp(x) * x; }
