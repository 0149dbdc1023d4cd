// Calls to functions of the same translation unit, differentiated in turn; recursion.
#include <cmath>
#include <numeric>
#include <tuple>
#include <vector>

static double square(double v) { return v * v; }

double sigmoid(double z) { return 1 / (1 + std::exp(-z)); }

double uses_helpers(double x, double y) { return square(x) * sigmoid(y) + square(sigmoid(x * y)); }
// VERIFY: uses_helpers

double helper_sum(const double* a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += square(a[i]);
  return s;
}

double calls_with_arrays(const double* a, int n, double scale) { return scale * helper_sum(a, n) + helper_sum(a, n / 2); }
// VERIFY: calls_with_arrays

void affine(const double* x, double* y, int n, double a, double b) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + b;
}

double calls_void(const double* x, int n, double a) {
  double y[16];
  affine(x, y, n, a, 0.5);
  double s = 0;
  for (int i = 0; i < n; ++i) s += std::sin(y[i]);
  return s;
}
// VERIFY: calls_void n=6

double power(double x, int k) {
  if (k == 0) return 1;
  return x * power(x, k - 1);
}

double recursion(double x, double y) { return power(x, 4) + power(y, 3) * x; }
// VERIFY: recursion

double calls_in_loop(double x, int n) {
  double v = x;
  for (int i = 0; i < n; ++i) v = sigmoid(v) + square(v) * 0.1;
  return v;
}
// VERIFY: calls_in_loop n=4

double partially_active(double x, double c) {
  double constant = square(3.0) + c * 0;
  return square(x) * constant + sigmoid(2.0);
}
// VERIFY: partially_active

double call_accumulate(double x, double y) {
  double s = x;
  s += square(y);
  s -= sigmoid(x);
  return s * y;
}
// VERIFY: call_accumulate

double with_wrt(double x, double y, double z) { return x * y * z + std::sin(z); }
// VERIFY: with_wrt wrt=x,z

// An output written only by a called function is an output all the same: its _dot is writable
// (the jvp did not compile). The call is inlined: the gradient undoes its stores as its own.
static void fill(const double* x, double* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = std::sin(x[i]);
}
double output_written_by_callee(const double* x, double* y, int n) {
  fill(x, y, n);
  double s = 0;
  for (int i = 0; i < n; ++i) s += y[i] * y[i];
  return s;
}
// VERIFY: output_written_by_callee n=5

// What a callee overwrites was read before the call: the reverse of that read needs the old
// values (silently wrong before the call was inlined: the reverse read what fill left), and a
// callee updating its array in place (refused before).
double read_then_callee_writes(const double* x, double* y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += y[i] * y[i] * x[i];
  fill(x, y, n);
  for (int i = 0; i < n; ++i) s += y[i] * y[i];
  return s;
}
// VERIFY: read_then_callee_writes n=5

static void scale(double* v, int n, double a) {
  for (int i = 0; i < n; ++i) v[i] *= a;
}
static void scaled_copy(const double* from, double* to, int n, double a) {
  for (int i = 0; i < n; ++i) to[i] = from[i];
  scale(to, n, a);
}
double callee_in_place(const double* x, double* v, int n, double a) {
  double before = v[0] * v[1];
  scale(v, n, a * x[0]);
  scaled_copy(x, v + 1, n - 1, std::cos(a));
  return before + v[0] * v[n - 1] + v[1];
}
// VERIFY: callee_in_place n=5

// Array writers as users write them, each overwriting what the caller read before the call: a
// container normalized in place, a pointer walk through a local pointer, a const method writing
// its output, and a callee calling another writer at an offset.
static void normalize(std::vector<double>& v) {
  double s = std::accumulate(v.begin(), v.end(), 0.0);
  for (double& e : v) e /= s;
}
double vector_callee(const std::vector<double>& x, std::vector<double>& y) {
  double before = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    y[i] = x[i] * x[i] + 1.0;
    before += y[i] * x[i];
  }
  normalize(y);
  double after = 0;
  for (std::size_t i = 0; i < y.size(); ++i) after += y[i] * y[i];
  return before + after;
}
// VERIFY: vector_callee

static void write_row(double* row, const double* x, int n, double s) {
  double* p = row;
  for (int j = 0; j < n; ++j) *p++ = s * x[j];
}
double walking_callee(const double* x, double* out, int n) {
  double t = 0;
  for (int i = 0; i < 2 * n; ++i) t += out[i] * 0.5;
  write_row(out, x, n, 2.0);
  write_row(out + n, x, n, t);
  for (int i = 0; i < 2 * n; ++i) t += out[i] * out[i];
  return t;
}
// VERIFY: walking_callee n=4 length=8

struct Model {
  double k;
  void predict(const double* x, double* y, int n) const {
    for (int i = 0; i < n; ++i) y[i] = std::tanh(k * x[i]);
  }
};
inline auto adjoint_fields(Model& m) { return std::tie(m.k); }
static void affine_in_place(double* y, int n, double a) {
  for (int i = 0; i < n; ++i) y[i] = a * y[i] + 1.0;
}
static void twice_affine(double* y, int n, double a) {
  affine_in_place(y, n, a);
  affine_in_place(y + 1, n - 1, a * a);
}
double method_writes(const Model& m, const double* x, double* y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += y[i] * x[i];
  m.predict(x, y, n);
  for (int i = 0; i < n; ++i) s += y[i] * y[i];
  twice_affine(y, n, m.k);
  for (int i = 0; i < n; ++i) s += std::sin(y[i]);
  return s;
}
// VERIFY: method_writes n=5
