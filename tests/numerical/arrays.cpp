// Arrays: pointer parameters read and written at computed indices, local arrays (of arrays too),
// overwrites.
#include <cmath>

double dot(const double* a, const double* b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}
// VERIFY: dot

double strided(const double* x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[2 * i + 1] * x[(i * 3) % 7];
  return s;
}
// VERIFY: strided

void square_into(const double* x, double* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = x[i] * x[i];
}
// VERIFY: square_into

void prefix_sum(const double* x, double* out, int n) {
  out[0] = x[0];
  for (int i = 1; i < n; ++i) out[i] = out[i - 1] + x[i];
}
// VERIFY: prefix_sum

void in_place(double* v, int n) {
  for (int i = 0; i < n; ++i) v[i] = std::sin(v[i]) * v[i];
  for (int i = 0; i < n; ++i) v[i] *= 2;
}
// VERIFY: in_place

double local_array(double x, double y) {
  double w[3] = {x, y, x * y};
  double tmp[4];
  for (int i = 0; i < 3; ++i) tmp[i] = w[i] * w[(i + 1) % 3];
  tmp[3] = tmp[0] + tmp[2];
  return tmp[3] * tmp[1] + w[2];
}
// VERIFY: local_array

double overwrite_array(double* buf, int n, double s) {
  double total = 0;
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < n; ++i) buf[i] = std::sin(buf[i] * s);
    total += buf[k];
  }
  return total;
}
// VERIFY: overwrite_array

double deref_pointer(const double* p, double* q) {
  *q = *p * 2;
  return *q * *p;
}
// VERIFY: deref_pointer

double matvec_norm(const double* A, const double* x, int n) {
  double y[8];
  for (int i = 0; i < n; ++i) {
    y[i] = 0;
    for (int j = 0; j < n; ++j) y[i] += A[i * n + j] * x[j];
  }
  double s = 0;
  for (int i = 0; i < n; ++i) s += y[i] * y[i];
  return std::sqrt(s);
}
// VERIFY: matvec_norm

double gather(const double* x, const double* weights, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    int j = (i * 5 + 2) % n;
    s += weights[j] * std::exp(-x[i] * x[j]);
  }
  return s;
}
// VERIFY: gather

#include <cstddef>

double unsigned_counter(const double* x, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += x[i] * x[i] * static_cast<double>(i + 1);
  for (unsigned k = 0; k < 3; k++) s = std::sqrt(s + k);
  return s;
}
// VERIFY: unsigned_counter n=9

// Local arrays of arrays (a rotation matrix, a small grid): one array row after row, indexed
// m[i][j], initialized by nested lists (rows and elements left out are zero), rows passed to a
// function (m[1]) and read through (*m[0]); integer tables too.
static double row_norm(const double* row, int n) {
  double s = 0;
  for (int j = 0; j < n; ++j) s += row[j] * row[j];
  return std::sqrt(s);
}

double grid_energy(double angle, const double* w, int n) {
  double rot[2][2] = {{std::cos(angle), -std::sin(angle)}, {std::sin(angle), std::cos(angle)}};
  double grid[3][4] = {{w[0], w[1]}, {angle}};
  const int weights[2][3] = {{1, 2, 3}, {4, 5, 6}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) grid[i][j] += w[(i * 4 + j) % n] * rot[i % 2][j % 2];
  for (int i = 1; i < 3; ++i)
    for (int j = 0; j < 4; ++j) grid[i][j] = std::tanh(grid[i - 1][j] * weights[i - 1][j % 3]) + grid[i][j];
  return row_norm(grid[2], 4) + *grid[1] * rot[1][0] + row_norm(&grid[0][1], 3);
}
// VERIFY: grid_energy n=5

// A local array passed on at an offset (it was "must point into an array variable").
double shifted_sum(double x) {
  double v[4] = {x, 2 * x, x * x, 1};
  return row_norm(v + 1, 3);
}
// VERIFY: shifted_sum
