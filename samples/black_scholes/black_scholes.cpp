// Black-Scholes price of a European call; its gradient is the option's Greeks
// (delta = dC/dS, rho = dC/dr, vega = dC/dsigma, theta = -dC/dT).
// SAMPLE: grad call_price
// SAMPLE: jvp call_price
// VERIFY: call_price lo=0.2 hi=1.2
#include <cmath>

static double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double call_price(double spot, double strike, double rate, double sigma, double maturity) {
  double vol = sigma * std::sqrt(maturity);
  double d1 = (std::log(spot / strike) + (rate + 0.5 * sigma * sigma) * maturity) / vol;
  double d2 = d1 - vol;
  return spot * normal_cdf(d1) - strike * std::exp(-rate * maturity) * normal_cdf(d2);
}
