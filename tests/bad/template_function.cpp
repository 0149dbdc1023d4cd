// ARGS: grad %s --fn square
// EXPECT: template_function.cpp:4:1: error: 'square' is a function template: name an instantiation
// EXPECT: note: instantiated here: --fn square<double>, square<float>
template <class T>
T square(T x) {
  return x * x;
}
double uses(double x, float y) { return square(x) + square(y); }
