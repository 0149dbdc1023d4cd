// ARGS: grad %s --fn square
// EXPECT: error: 'square' is a function template; Adjoint differentiates functions
// EXPECT: note: call it from a plain function with the types you need, and differentiate that
template <class T>
T square(T x) {
  return x * x;
}
