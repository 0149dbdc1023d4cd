// ARGS: grad %s --fn f
// EXPECT: lambda.cpp:5:3: error: lambdas are not supported in differentiated code
// EXPECT: note: write the lambda as a function of its own
double f(double x) {
  auto sq = [](double v) { return v * v; };
  return sq(x);
}
