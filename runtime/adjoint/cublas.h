// What generated host code over cuBLAS calls: the GEMM as the forward wrote it, and its pullback
// and tangent, each a few cuBLAS calls. Real cuBLAS on the GPU; the CPU stand-in
// (adjoint/cublas_cpu.h) with ADJOINT_CPU_EXECUTION. The scalars alpha and beta are read on the
// host (cuBLAS's default pointer mode). Every function returns a cudaError_t, so that generated
// code keeps the first error of launches, copies and GEMMs alike.
#pragma once

#include <type_traits>

#include "adjoint/cuda_host.h"
#ifdef ADJOINT_CPU_EXECUTION
#include "adjoint/cublas_cpu.h"
#else
#include <cublas_v2.h>
#endif

namespace adjoint {

// T itself, in a position where template arguments are not deduced (a null A_bar says nothing
// about T).
template <class T>
struct NotDeduced {
  using type = T;
};

inline cudaError_t as_cuda_error(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS:
      return cudaSuccess;
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return cudaErrorInitializationError;
    case CUBLAS_STATUS_ALLOC_FAILED:
      return cudaErrorMemoryAllocation;
    case CUBLAS_STATUS_INVALID_VALUE:
      return cudaErrorInvalidValue;
    default:
      return cudaErrorUnknown;
  }
}

// C = alpha op(A) op(B) + beta C, column-major: op(A) is m x k, op(B) k x n, C m x n.
template <class T>
cudaError_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* alpha,
                 const T* A, int lda, const T* B, int ldb, const T* beta, T* C, int ldc) {
  if constexpr (std::is_same<T, double>::value)
    return as_cuda_error(cublasDgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
  else
    return as_cuda_error(cublasSgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
}

// The stream the handle's calls run on.
inline cudaStream_t stream_of(cublasHandle_t h) {
  cudaStream_t stream = nullptr;
  cublasGetStream(h, &stream);
  return stream;
}

inline cublasOperation_t transposed(cublasOperation_t t) { return t == CUBLAS_OP_N ? CUBLAS_OP_T : CUBLAS_OP_N; }

// C_bar = beta C_bar over the m x n matrix: zero where beta is 0 (whatever C_bar held).
template <class T>
cudaError_t scale(cublasHandle_t h, int m, int n, const T* beta, T* C_bar, int ldc) {
  if (*beta == T(0))
    return cudaMemset2DAsync(C_bar, size_t(ldc) * sizeof(T), 0, size_t(m) * sizeof(T), size_t(n), stream_of(h));
  const T zero = 0;
  if constexpr (std::is_same<T, double>::value)
    return as_cuda_error(
        cublasDgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, beta, C_bar, ldc, &zero, C_bar, ldc, C_bar, ldc));
  else
    return as_cuda_error(
        cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, beta, C_bar, ldc, &zero, C_bar, ldc, C_bar, ldc));
}

// The pullback of C = alpha op(A) op(B) + beta C, with C_bar the adjoint of C after it:
//   op(A)_bar += alpha C_bar op(B)^T      A_bar (m x k) += alpha C_bar op(B)^T       (ta = N)
//                                          A_bar (k x m) += alpha op(B) C_bar^T       (ta = T)
//   op(B)_bar += alpha op(A)^T C_bar      B_bar (k x n) += alpha op(A)^T C_bar       (tb = N)
//                                          B_bar (n x k) += alpha C_bar^T op(A)       (tb = T)
//   C_bar      = beta C_bar               (the adjoint of C before the GEMM)
// A null A_bar or B_bar is not computed.
template <class T>
cudaError_t gemm_vjp(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* alpha,
                     const T* A, int lda, const T* B, int ldb, const T* beta, int ldc,
                     typename NotDeduced<T>::type* A_bar, typename NotDeduced<T>::type* B_bar, T* C_bar) {
  const T one = 1;
  cudaError_t e = cudaSuccess;
  if (A_bar && ta == CUBLAS_OP_N)
    e = gemm(h, CUBLAS_OP_N, transposed(tb), m, k, n, alpha, C_bar, ldc, B, ldb, &one, A_bar, lda);
  else if (A_bar)
    e = gemm(h, tb, CUBLAS_OP_T, k, m, n, alpha, B, ldb, C_bar, ldc, &one, A_bar, lda);
  if (e == cudaSuccess && B_bar && tb == CUBLAS_OP_N)
    e = gemm(h, transposed(ta), CUBLAS_OP_N, k, n, m, alpha, A, lda, C_bar, ldc, &one, B_bar, ldb);
  else if (e == cudaSuccess && B_bar)
    e = gemm(h, CUBLAS_OP_T, ta, n, k, m, alpha, C_bar, ldc, A, lda, &one, B_bar, ldb);
  return e == cudaSuccess ? scale(h, m, n, beta, C_bar, ldc) : e;
}

// The tangent of C = alpha op(A) op(B) + beta C:
//   C_dot = alpha (op(A_dot) op(B) + op(A) op(B_dot)) + beta C_dot
template <class T>
cudaError_t gemm_jvp(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* alpha,
                     const T* A, int lda, const T* B, int ldb, const T* beta, int ldc, const T* A_dot, const T* B_dot,
                     T* C_dot) {
  const T one = 1;
  cudaError_t e = gemm(h, ta, tb, m, n, k, alpha, A_dot, lda, B, ldb, beta, C_dot, ldc);
  return e == cudaSuccess ? gemm(h, ta, tb, m, n, k, alpha, A, lda, B_dot, ldb, &one, C_dot, ldc) : e;
}

}  // namespace adjoint
