// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: assignment_in_condition.cpp:12:10: error: an assignment or ++/-- in a loop's condition or step is not supported
// CHECK: note: write it as a statement of its own
// CHECK: assignment_in_condition.cpp:13:33: error: an assignment or ++/-- in a loop's condition or step is not supported
// CHECK: assignment_in_condition.cpp:15:26: error: a for loop's step of more than one expression is not supported
// CHECK: note: step one counter in the loop's head and the others at the end of its body
// An assignment inside an expression runs before the statement: not where the expression runs
// again and again. (Under ?:, && and || it runs where the forward evaluates it.)
double f(const double* x, int n) {
  double s = 0;
  int i = 0;
  while (i++ < n) s += x[i - 1];
  for (int k = 0; k < n; s += x[k++]) {
  }
  for (int j = 0; j < n; ++j, s *= 0.5) s += x[j];
  return s;
}
