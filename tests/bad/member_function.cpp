// ARGS: grad %s --fn Chain::energy
// EXPECT: member_function.cpp:6:3: error: 'Chain::energy' is a member function, which Adjoint does not differentiate yet
// EXPECT: note: write it as a free function taking the object's fields
struct Chain {
  double k;
  double energy(double x) const { return k * x * x; }
};
