// ARGS: jvp %s --fn table
// EXPECT: no_floating_parameter.cpp:4:8: error: 'table' has no float or double parameter to differentiate
// EXPECT: note: Adjoint differentiates with respect to float and double parameters
double table(int i) { return 0.5 * i * i; }
