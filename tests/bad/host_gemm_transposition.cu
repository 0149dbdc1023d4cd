// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: host_gemm_transposition.cu:10:3: error: the transposition of a GEMM must be CUBLAS_OP_N or CUBLAS_OP_T, written out
// CHECK: note: Adjoint chooses the GEMMs of the gradient by the transpositions of the forward's
#include <cublas_v2.h>

// Which GEMMs the gradient needs depends on a value known only when f runs.
void f(cublasHandle_t handle, const float* A, const float* B, float* C, int n, bool transpose) {
  const float one = 1.0f, zero = 0.0f;
  cublasOperation_t op = transpose ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasSgemm(handle, op, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n);
}
