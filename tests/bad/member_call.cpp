// ARGS: grad %s --fn f
// EXPECT: member_call.cpp:9:31: error: member function calls (including virtual calls) are not supported
// EXPECT: note: call a free function instead
struct Model {
  virtual double eval(double x) const { return x * x; }
};
double f(double x) {
  Model m;
  return x + static_cast<int>(m.eval(x));
}
