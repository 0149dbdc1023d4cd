// ARGS: jvp %s --fn f
// EXPECT: switch_stmt.cpp:5:3: error: switch is not supported
// EXPECT: note: use if / else if
double f(double x, int mode) {
  switch (mode) {
    case 0: return x;
    default: return x * x;
  }
}
