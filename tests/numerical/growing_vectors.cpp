// Local std::vectors grown and shrunk as numerical code does it: push_back and emplace_back after a
// reserve, under a branch (a filter), in a loop whose condition reads the growing size, with a
// value read from the vector itself, in nested loops, and read back by index, back() and range-for;
// pop_back, clear and resize.
#include <cmath>
#include <vector>

double squares_sum(const std::vector<double>& x) {
  std::vector<double> squares;
  squares.reserve(x.size());
  for (double v : x) squares.push_back(v * v);
  double s = 0;
  for (std::size_t k = 0; k < squares.size(); ++k) s += std::sin(squares[k]) * squares.back();
  return s;
}
// VERIFY: squares_sum

// Keeps the weighted samples above a threshold, then takes their log-mean: both sides of the filter
// are reached by the inputs the checks draw.
double filtered_log_mean(const std::vector<double>& x, double weight, double threshold) {
  std::vector<double> kept;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i] > threshold) kept.push_back(weight * x[i]);
  if (kept.empty()) return 0.0;
  double total = 0;
  for (double v : kept) total += std::log(v);
  return total / static_cast<double>(kept.size());
}
// VERIFY: filtered_log_mean

// Running products: each element is made from the one before it, and the loop runs until the
// vector has grown one longer than x.
double prefix_products(const std::vector<double>& x) {
  std::vector<double> partial;
  partial.push_back(1.0);
  while (partial.size() <= x.size()) partial.push_back(partial.back() * x[partial.size() - 1]);
  double s = 0;
  for (double p : partial) s += p;
  return s;
}
// VERIFY: prefix_products

// Pairwise distances of points on a line into one list, then a soft repulsion over the list.
double repulsion(const std::vector<double>& position, double softening) {
  std::vector<double> distance;
  for (std::size_t i = 0; i < position.size(); ++i)
    for (std::size_t j = i + 1; j < position.size(); ++j) {
      double d = position[i] - position[j];
      distance.emplace_back(std::sqrt(d * d + softening * softening));
    }
  double energy = 0;
  for (const double& r : distance) energy += 1.0 / r;
  return energy;
}
// VERIFY: repulsion

// A vector grown then overwritten in place (an exponential moving average over the samples), and
// written again after being read.
double smoothed_tail(const std::vector<double>& x, double alpha) {
  std::vector<double> ema{};
  ema.push_back(x[0]);
  for (std::size_t i = 1; i < x.size(); ++i) {
    ema.emplace_back();
    ema[i] = alpha * x[i] + (1 - alpha) * ema[i - 1];
  }
  for (std::size_t i = 0; i < ema.size(); ++i) ema[i] = ema[i] * ema[i];
  return ema.back() + ema[ema.size() / 2];
}
// VERIFY: smoothed_tail

// A called function grows a vector of its own (its pullback shrinks it back), called twice.
static double positive_log_sum(const std::vector<double>& x, double shift) {
  std::vector<double> logs;
  for (double v : x)
    if (v - shift > 0) logs.push_back(std::log(v - shift));
  double s = 0;
  for (double l : logs) s += l * l;
  return s;
}

double shifted_logs(const std::vector<double>& x, double shift) {
  return positive_log_sum(x, shift) * shift + positive_log_sum(x, 0.5 * shift);
}
// VERIFY: shifted_logs

// A stack: pushed, then popped while it is not empty, each value read before it goes.
double stack_unwind(const std::vector<double>& x, double decay) {
  std::vector<double> stack;
  for (double v : x) stack.push_back(v * v);
  double s = 0;
  while (!stack.empty()) {
    s = s * decay + std::sin(stack.back());
    stack.pop_back();
  }
  return s;
}
// VERIFY: stack_unwind

// A buffer cleared and refilled each round, and a window kept to a fixed length: the values the
// forward drops are the ones the reverse sweep needs back.
double windowed_rounds(const std::vector<double>& x, double w, int rounds) {
  std::vector<double> buffer;
  std::vector<double> window;
  double s = 0;
  for (int r = 0; r < rounds; ++r) {
    buffer.clear();
    for (double v : x) buffer.push_back(w * v + r);
    window.push_back(buffer[0] * buffer.back());
    if (window.size() > 2) window.pop_back();
    for (double b : buffer) s += b * window.back();
  }
  return s + window[0];
}
// VERIFY: windowed_rounds rounds=3

// resize: grown with a value read from the vector itself, shrunk, grown with zeros.
double resized(const std::vector<double>& x, double a) {
  std::vector<double> v(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) v[i] = a * x[i];
  v.resize(x.size() + 2, v[0] * a);
  double s = v.back() * v[1];
  v.resize(2);
  s += v[0] * v[1] * v.size();
  v.resize(4);
  for (double e : v) s += std::exp(0.1 * e);
  return s;
}
// VERIFY: resized

// A branch on the vector's size that grows it: its condition, false once the vector has grown,
// is taped rather than evaluated again in the reverse sweep (which read the grown size, silently
// dropping the branch's adjoint, before this was found).
double grown_if_short(const std::vector<double>& x, double a) {
  std::vector<double> v;
  v.push_back(a);
  v.push_back(a * x[1]);
  if (v.size() < 3) v.push_back(std::sin(a * x[0]));
  if (v.size() > 2) v.pop_back();
  double s = 0;
  for (double e : v) s += e * e;
  return s + v.size();
}
// VERIFY: grown_if_short
