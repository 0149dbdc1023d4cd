// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: assignment_in_condition.cpp:10:10: error: an assignment or ++/-- in a loop's condition or step, or under ?:, && or ||, is not supported
// CHECK: note: write it as a statement of its own
// CHECK: assignment_in_condition.cpp:11:20: error: an assignment or ++/-- in a loop's condition or step, or under ?:, && or ||, is not supported
// An assignment inside an expression runs before the statement: not where the expression runs
// again and again, or maybe not at all.
double f(const double* x, int n) {
  double s = 0;
  int i = 0;
  while (i++ < n) s += x[i - 1];
  return s > 1 && (s *= 0.5) > 0 ? s : x[0];
}
