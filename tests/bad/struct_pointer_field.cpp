// ARGS: grad %s --fn f
// EXPECT: struct_pointer_field.cpp:6:3: error: field 'data' of 'Buffer' is not a scalar
// EXPECT: note: Adjoint differentiates structs of float, double, integer and bool fields
struct Buffer {
  int size;
  double* data;
};

double f(const Buffer& b, double x) { return x * b.size; }
