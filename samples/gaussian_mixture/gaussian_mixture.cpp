// Negative log-likelihood of 1D data under a mixture of k Gaussians (log-sum-exp per point).
// SAMPLE: grad mixture_nll
// SAMPLE: jvp mixture_nll
// VERIFY: mixture_nll ints=10,3 lo=-1.0 hi=1.0
#include <cmath>

double mixture_nll(const double* x, int n, int k, const double* logits, const double* means,
                   const double* log_sigmas) {
  double norm = 0;
  double lmax = logits[0];
  for (int j = 1; j < k; ++j) lmax = std::fmax(lmax, logits[j]);
  for (int j = 0; j < k; ++j) norm += std::exp(logits[j] - lmax);
  double log_norm = lmax + std::log(norm);
  double nll = 0;
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < k; ++j) {
      double z = (x[i] - means[j]) * std::exp(-log_sigmas[j]);
      s += std::exp(logits[j] - log_norm - 0.5 * z * z - log_sigmas[j]);
    }
    nll -= std::log(s) - 0.91893853320467274;  // log sqrt(2 pi)
  }
  return nll / n;
}
