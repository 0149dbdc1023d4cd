// ARGS: grad %s --fn f
// EXPECT: static_local.cpp:5:3: error: static or extern local variable 'calls' is not supported
// EXPECT: note: state that outlives a call cannot be differentiated
double f(double x) {
  static double calls = 0;
  return x * x;
}
