// ARGS: grad %s --fn f
// EXPECT: goto.cpp:9:5: error: goto and labels are not supported
// EXPECT: note: use structured control flow
double f(double x) {
  double y = x;
again:
  y = y * 2;
  if (y < 10)
    goto again;
  return y;
}
