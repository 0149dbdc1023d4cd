// A numerically stable softmax: a vector-valued function with an output array, so the reverse
// mode entry point is softmax_vjp, whose p_bar carries the incoming adjoint.
// SAMPLE: grad softmax
// SAMPLE: jvp softmax
// VERIFY: softmax n=7
#include <cmath>

void softmax(const double* z, double* p, int n) {
  double m = z[0];
  for (int i = 1; i < n; ++i) m = std::fmax(m, z[i]);
  double total = 0;
  for (int i = 0; i < n; ++i) {
    p[i] = std::exp(z[i] - m);
    total += p[i];
  }
  for (int i = 0; i < n; ++i) p[i] /= total;
}
