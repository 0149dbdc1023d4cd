// Parameters that are arrays of arrays, as C++ engineers pass small matrices and tables of
// points: `double A[3][3]`, `const double pts[][2]`, `float (*rows)[4]`, three dimensions,
// rows passed on to helpers, a row pointer walked, the whole matrix cast to its elements.
#include <cmath>

// A 3x3 matrix, by the size it has.
double det3(const double A[3][3]) {
  return A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
         A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
}
// VERIFY: det3

// y = A x for n rows of 4.
void matvec4(const double A[][4], const double* x, double* y, int n) {
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < 4; ++j) s += A[i][j] * x[j];
    y[i] = std::tanh(s);
  }
}
// VERIFY: matvec4 n=5

static double norm2(const double* v, int k) {
  double s = 0;
  for (int j = 0; j < k; ++j) s += v[j] * v[j];
  return std::sqrt(s + 1e-3);
}

// The perimeter of a polygon whose points are rows: each difference through a helper taking a row.
double perimeter(const double pts[][2], int n) {
  double total = 0;
  double d[2];
  for (int i = 0; i < n; ++i) {
    const int k = (i + 1) % n;
    d[0] = pts[k][0] - pts[i][0];
    d[1] = pts[k][1] - pts[i][1];
    total += norm2(d, 2) + 0.125 * norm2(pts[i], 2);
  }
  return total;
}
// VERIFY: perimeter n=6

// An output matrix written row by row through a pointer to rows, in float.
void outer(const float* u, const float* v, float (*out)[3], int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j) out[i][j] = u[i] * std::sin(v[j]);
}
// VERIFY: outer n=4

// Three dimensions: a stack of 2x2 blocks.
double block_traces(const double blocks[][2][2], int n) {
  double s = 0;
  for (int b = 0; b < n; ++b) s += blocks[b][0][0] * blocks[b][1][1] - blocks[b][0][1] * blocks[b][1][0];
  return s;
}
// VERIFY: block_traces n=3

// A row pointer walked over the rows, and the matrix read as its elements through a cast.
double walked_rows(const double (*m)[3], int n) {
  double s = 0;
  for (const double (*row)[3] = m; row != m + n; ++row) s += (*row)[0] * (*row)[2];
  const double* flat = reinterpret_cast<const double*>(m);
  for (int k = 0; k < 3 * n; ++k) s += 0.25 * std::cos(flat[k]);
  return s;
}
// VERIFY: walked_rows n=4

// A row of a local matrix passed to a function that takes the matrix, and an in-place update.
static double row_energy(const double rows[][3], int i) { return rows[i][0] * rows[i][1] + rows[i][2]; }
double local_matrix(double x, double rows[2][3]) {
  double m[2][3] = {{x, 2 * x, x * x}, {std::sin(x), 1.0, x}};
  for (int j = 0; j < 3; ++j) rows[1][j] *= m[0][j];
  return row_energy(m, 1) + row_energy(rows, 1) + row_energy(rows, 0);
}
// VERIFY: local_matrix n=2

// A row taken as `const double row[3]`, an array parameter of one dimension: a pointer to const
// (the generated copy of the helper had dropped the const, and its call from a const row did not
// compile).
static double row_weight(const double row[3]) { return row[0] * std::sin(row[1]) + 0.5 * row[2]; }
double weighted_rows(const double m[][3], int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += row_weight(m[i]) * m[(i + 1) % n][2];
  return s;
}
// VERIFY: weighted_rows n=4
