// ARGS: grad %s --fn f
// EXPECT: inline_asm.cpp:6:3: error: inline assembly cannot be differentiated
// EXPECT: note: move it into a function with a custom derivative
double f(double x) {
  double y = x;
  asm volatile("" ::: "memory");
  return y * x;
}
