// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: host_gemm_half.cu:11:3: error: the data types of a cublasGemmEx must be CUDA_R_32F, as its buffers are
// CHECK: note: Adjoint differentiates GEMMs on float (CUDA_R_32F) and double (CUDA_R_64F) buffers; half and
#include <cublas_v2.h>

// Float buffers described to cuBLAS as half: the adjoints would not be what cuBLAS computes on.
void f(cublasHandle_t handle, const float* A, const float* B, float* C, int m, int n, int k) {
  const float alpha = 1.0f, beta = 0.0f;
  // The types say half.
  // (The GEMM below.)
  cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, CUDA_R_16F, m, B, CUDA_R_16F, k, &beta, C,
               CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
