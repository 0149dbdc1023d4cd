// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: loop_head_continue.cpp:17:28: error: a for loop's step of more than one statement, in a loop with continue, is not supported
// CHECK: note: step one counter in the loop's head and the others where the body goes on to the next iteration
// CHECK: loop_head_continue.cpp:26:12: error: a do-while condition that needs statements computed first, in a loop with continue, is not supported
// CHECK: note: compute it into a variable at the end of the body, and test that variable
// A step of several statements runs at the end of the body, and a do-while's condition that
// needs statements first runs there too: a continue would skip them.
static double halve(double& x) {
  x *= 0.5;
  return x;
}

double f(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] < 0) continue;
    for (int j = 0; j < n; ++j, s *= 0.5) {
      if (j == i) continue;
      s += x[i] * x[j];
    }
  }
  double y = s;
  do {
    if (y > 100) continue;
    y += x[0];
  } while (halve(y) > 1);
  return y;
}
