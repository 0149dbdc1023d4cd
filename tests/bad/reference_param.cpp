// ARGS: grad %s --fn f
// EXPECT: reference_param.cpp:4:20: error: reference type 'double &' is not supported
// EXPECT: note: pass by value (structs also by const reference), or by pointer for arrays and outputs
double f(double x, double& out) {
  out = x * 2;
  return x * x;
}
