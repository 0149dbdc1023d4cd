// Pointer locals, pointer walks and pointer arithmetic: each pointer is followed into the array it
// points into, and adjoints and tangents are read and written at the same offsets as the values.
#include <cmath>

// *(a + k) is a[k] (its gradient was all zeros).
double deref_offset(const double* a, int k) { return *(a + k) * *(a + k) + std::sin(*(a + k + 1)); }
// VERIFY: deref_offset ints=2

// A pointer local into a parameter: the tangent of q[0] is the tangent of w[1].
double offset_local(const double* w) {
  const double* q = w + 1;
  return q[0] * w[2] + q[1] * w[0] + q[-1] * q[0];
}
// VERIFY: offset_local

// Row pointers, as matrix code writes them.
double row_sums(const double* A, int m, int n, double* rowsum) {
  double total = 0;
  for (int i = 0; i < m; ++i) {
    const double* row = A + i * n;
    double* out = &rowsum[i];
    *out = 0;
    for (int j = 0; j < n; ++j) *out += row[j] * row[j] * (j + 1);
    total += std::sqrt(*out);
  }
  return total;
}
// VERIFY: row_sums ints=4,5 length=20

// A pointer walk: the parameter advanced in place, and a local pointer stepping to an end.
double walk_param(const double* p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += *p * *p;
    ++p;
  }
  return s;
}
// VERIFY: walk_param n=7
double walk_to_end(const double* x, int n, double t) {
  double s = 0;
  for (const double* p = x; p != x + n; p++) s += std::exp(t * *p);
  const double* last = x + n;
  last -= 1;
  return s * *last;
}
// VERIFY: walk_to_end n=6

// C's pointer walks: read and write through a pointer that steps in the same expression
// (*p++, *++p, *out++ = v), the parameter itself advanced too.
double copy_walk(const double* in, double* out, int n, double t) {
  const double* p = in;
  double s = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double v = *p++;
    *out++ = std::sin(t * v) + *p;
    s += v * *in++;
  }
  const double* q = p - 2;
  s += 0.5 * *++q;
  s *= *q--;
  return s + *q;
}
// VERIFY: copy_walk n=6

// A store through an offset into a local array (it was dropped).
double local_array_offset(double x, int n) {
  double a[3] = {x, 2 * x, 3 * x};
  for (int i = 0; i < n; ++i) *(a + 1) += 11 * i * x;
  return a[1] * a[1] + *a;
}
// VERIFY: local_array_offset n=4

// 64-bit integer constants are emitted as written (they went through double: 0x5851f42d4c958000u).
static unsigned long long lcg(unsigned long long s) { return s * 6364136223846793005ULL + 1442695040888963407ULL; }
double hashed_scale(double x, int n) {
  unsigned long long s = lcg(static_cast<unsigned long long>(n));
  return x * static_cast<double>(s % 1000u) / 1000.0 + x * x;
}
// VERIFY: hashed_scale n=3

// Pointers into arrays passed to functions: rows of a matrix, an offset written out, a local row
// pointer advanced in a loop, and an output row written through the pointer (their adjoints and
// tangents go to the call at the same offsets).
static double row_dot(const double* a, const double* b, int n) {
  double s = 0;
  for (int j = 0; j < n; ++j) s += a[j] * b[j];
  return s;
}
static void scaled_row(double* out, const double* in, double t, int n) {
  for (int j = 0; j < n; ++j) out[j] = t * std::sin(in[j]);
}
double rows_to_calls(const double* A, const double* x, int m, int n, double* y) {
  double total = 0;
  const double* row = A;
  for (int i = 0; i < m; ++i) {
    total += row_dot(row, x, n) * row_dot(A + i * n + 1, x + 1, n - 1);
    scaled_row(y + i * n, row, x[i % n], n);
    row += n;
  }
  return total + row_dot(y, y + n, n);
}
// VERIFY: rows_to_calls ints=3,4 length=12
