// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn shifted_noise -o %t/out.cpp 2>&1 | FileCheck %s --check-prefix=NOISE && ls -A %t | count 0
// RUN: not %adjoint grad %s --fn round_trip -o %t/out.cpp 2>&1 | FileCheck %s --check-prefix=TRIP && ls -A %t | count 0
// NOISE: library_object_from_active.cpp:15:3: error: library code computes 'noise' from 'mu', a floating variable: Adjoint does not differentiate through library code
// NOISE: note: let library objects compute from constants and integers only (a const double of a constant value is one): draw z from N(0, 1) and use mu + sigma * z
// TRIP: library_object_from_active.cpp:21:19: error: library code computes the value of 'parsed' from 'x', a floating variable
// Library code passes through where it computes from no floating value
// (tests/numerical/passive_code.cpp); a distribution whose mean is an input, or a value read back
// from a string made from one, would hide a derivative.
#include <random>
#include <string>

double shifted_noise(double mu, double x) {
  std::mt19937 engine(7);
  double total = 0;
  std::normal_distribution<double> noise(mu, 0.1);
  total += noise(engine) * x;
  return total;
}

double round_trip(double x) {
  double parsed = std::stod(std::to_string(x));
  return parsed * x;
}
