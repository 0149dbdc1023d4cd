// Code that touches no value a derivative needs passes through as the program wrote it: a random
// engine and its distributions, draws as constants of the derivative (taped, never drawn again),
// output, strings. What such code computes from a floating value is refused
// (tests/bad/library_object_from_active.cpp).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <vector>

// A noisy energy: the noise is drawn in the loop, the result printed.
double noisy_energy(const std::vector<double>& x, double k, unsigned seed) {
  const double sigma = 0.1;  // (a constant: the distribution computes from no input)
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> noise(0.0, sigma);
  double e = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    double jitter = noise(engine);
    e += k * x[i] * x[i] + 0.01 * jitter * std::sin(x[i]);
  }
  std::fprintf(stderr, "energy %f\n", e);
  return e;
}
// VERIFY: noisy_energy length=6

// A random subset: indices drawn by a distribution, a draw assigned in a loop, a log line built
// as a string.
double sampled_loss(const double* w, int n, double scale) {
  std::mt19937 engine(42);
  std::uniform_int_distribution<int> pick(0, n - 1);
  std::uniform_real_distribution<double> unit(0.5, 1.5);
  std::string log = "sampled";
  double loss = 0, weight = 1;
  for (int s = 0; s < 4; ++s) {
    int i = pick(engine);
    weight = unit(engine);
    loss += weight * std::tanh(scale * w[i]) * w[(i + 1) % n];
    log += " " + std::to_string(i);
  }
  if (n < 0) std::cerr << log << ": " << loss << '\n';
  return loss;
}
// VERIFY: sampled_loss n=5

// A function that logs as it goes, called from the differentiated one (its pullback runs it again).
static double logged_step(double v, int step) {
  double next = v - 0.1 * std::sin(v) * v;
  if (step < 0) std::cout << "step " << step << ": " << next << std::endl;
  return next;
}
double descend(double v0) {
  double v = v0;
  for (int s = 0; s < 3; ++s) v = logged_step(v, s);
  return v * v;
}
// VERIFY: descend
