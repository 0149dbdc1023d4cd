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

// Whether C_bar is read after a GEMM's pullback (by the pullbacks of steps before the GEMM).
enum class CBar { Read, Unread };

// How gemm_vjp treats adjoints a training step keeps in scratch. A nonzero A_bar_fresh says A_bar
// (of that many elements) holds no adjoint yet and was not zeroed: the pullback writes it (beta 0)
// when op(A)'s matrix covers all of it, else zeroes it first and adds. Likewise B_bar_fresh.
// C_bar = CBar::Unread: nothing reads C_bar after the pullback, which leaves it as it is.
struct GemmAdjoints {
  long long A_bar_fresh = 0, B_bar_fresh = 0;
  CBar C_bar = CBar::Read;
  GemmAdjoints() = default;
  GemmAdjoints(long long a_fresh, long long b_fresh, CBar c) : A_bar_fresh(a_fresh), B_bar_fresh(b_fresh), C_bar(c) {}
};

namespace detail {

// The beta of a pullback GEMM into an adjoint (rows x cols, leading dimension ld): 1 to add into
// it; 0 to write a fresh one that the matrix covers; a fresh one it does not cover is zeroed first.
template <class T>
cudaError_t adjoint_beta(cublasHandle_t h, T* bar, int rows, int cols, int ld, long long fresh, T* beta) {
  *beta = T(1);
  if (!bar || fresh == 0) return cudaSuccess;
  if (ld == rows && static_cast<long long>(rows) * cols >= fresh) {
    *beta = T(0);
    return cudaSuccess;
  }
  return cudaMemsetAsync(bar, 0, size_t(fresh) * sizeof(T), stream_of(h));
}

}  // namespace detail

// The pullback of C = alpha op(A) op(B) + beta C, with C_bar the adjoint of C after it:
//   op(A)_bar += alpha C_bar op(B)^T      A_bar (m x k) += alpha C_bar op(B)^T       (ta = N)
//                                          A_bar (k x m) += alpha op(B) C_bar^T       (ta = T)
//   op(B)_bar += alpha op(A)^T C_bar      B_bar (k x n) += alpha op(A)^T C_bar       (tb = N)
//                                          B_bar (n x k) += alpha C_bar^T op(A)       (tb = T)
//   C_bar      = beta C_bar               (the adjoint of C before the GEMM)
// A null A_bar or B_bar is not computed; `adjoints` as GemmAdjoints says.
template <class T>
cudaError_t gemm_vjp(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* alpha,
                     const T* A, int lda, const T* B, int ldb, const T* beta, int ldc,
                     typename NotDeduced<T>::type* A_bar, typename NotDeduced<T>::type* B_bar, T* C_bar,
                     GemmAdjoints adjoints = {}) {
  T beta_A, beta_B;
  cudaError_t e = ta == CUBLAS_OP_N ? detail::adjoint_beta(h, A_bar, m, k, lda, adjoints.A_bar_fresh, &beta_A)
                                    : detail::adjoint_beta(h, A_bar, k, m, lda, adjoints.A_bar_fresh, &beta_A);
  if (e == cudaSuccess && A_bar && ta == CUBLAS_OP_N)
    e = gemm(h, CUBLAS_OP_N, transposed(tb), m, k, n, alpha, C_bar, ldc, B, ldb, &beta_A, A_bar, lda);
  else if (e == cudaSuccess && A_bar)
    e = gemm(h, tb, CUBLAS_OP_T, k, m, n, alpha, B, ldb, C_bar, ldc, &beta_A, A_bar, lda);
  if (e == cudaSuccess)
    e = tb == CUBLAS_OP_N ? detail::adjoint_beta(h, B_bar, k, n, ldb, adjoints.B_bar_fresh, &beta_B)
                          : detail::adjoint_beta(h, B_bar, n, k, ldb, adjoints.B_bar_fresh, &beta_B);
  if (e == cudaSuccess && B_bar && tb == CUBLAS_OP_N)
    e = gemm(h, transposed(ta), CUBLAS_OP_N, k, n, m, alpha, A, lda, C_bar, ldc, &beta_B, B_bar, ldb);
  else if (e == cudaSuccess && B_bar)
    e = gemm(h, CUBLAS_OP_T, ta, n, k, m, alpha, C_bar, ldc, A, lda, &beta_B, B_bar, ldb);
  if (e != cudaSuccess || adjoints.C_bar == CBar::Unread) return e;
  return scale(h, m, n, beta, C_bar, ldc);
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
