// Mean squared error of a one-hidden-layer tanh network on a batch: the loss of a small neural net.
// SAMPLE: grad mlp_loss
// SAMPLE: jvp mlp_loss
// VERIFY: mlp_loss ints=4,3,5 lo=-1.0 hi=1.0
#include <cmath>

// X: batch x in_dim inputs, Y: batch targets; W1: hidden x in_dim, b1: hidden, w2: hidden, b2: one.
double mlp_loss(const double* X, const double* Y, int batch, int in_dim, int hidden, const double* W1,
                const double* b1, const double* w2, double b2) {
  double loss = 0;
  for (int n = 0; n < batch; ++n) {
    double h[16];
    for (int k = 0; k < hidden; ++k) {
      double a = b1[k];
      for (int i = 0; i < in_dim; ++i) a += W1[k * in_dim + i] * X[n * in_dim + i];
      h[k] = std::tanh(a);
    }
    double out = b2;
    for (int k = 0; k < hidden; ++k) out += w2[k] * h[k];
    double err = out - Y[n];
    loss += err * err;
  }
  return loss / batch;
}
