// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn row_sums -o %t/out.cu 2>&1 | FileCheck %s --check-prefix=KERNEL && ls -A %t | count 0
// RUN: not %adjoint grad %s --fn cells -o %t/out.cu 2>&1 | FileCheck %s --check-prefix=CELLS && ls -A %t | count 0
// KERNEL: array_of_arrays_in_kernel.cu:13:26: error: a pointer to arrays ('const float (*)[4]') is not supported in device code
// KERNEL: note: pass a pointer to the first element (const float* a) and index it a[i * N + j]
// CELLS: array_of_arrays_in_kernel.cu:19:14: error: a pointer to arrays of 'Cell' is not supported
// CELLS: note: pass a pointer to the first element (const Cell* a) and index it a[i * N + j]
// Parameters that are arrays of arrays: host functions take them (tests/numerical/matrices.cpp);
// a kernel does not yet (its launcher and the runtime's kernel execution take flat buffers), nor
// does a function take rows of structs.
struct Cell {
  double w;
};
__global__ void row_sums(const float (*a)[4], float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i][0] + a[i][1] + a[i][2] + a[i][3];
}

// Rows of structs.
double cells(const Cell grid[][3], int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += grid[i][0].w;
  return s;
}
