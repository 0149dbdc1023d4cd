// ARGS: grad %s --fn f
// EXPECT: exceptions.cpp:5:3: error: exceptions are not supported in differentiated code
// EXPECT: note: report errors through return values
double f(double x) {
  try {
    x = x * 2;
  } catch (...) {
  }
  return x;
}
