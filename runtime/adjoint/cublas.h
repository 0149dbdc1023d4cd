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
// SgdOn::A (B): SGD folded into the pullback. A_bar is A itself (a trained parameter whose only
// gradient this is): the GEMM that computes the gradient adds -lr times it into A, after B's
// adjoint, which reads A, is computed; the gradient never goes to memory.
enum class SgdOn { None, A, B };
struct GemmAdjoints {
  long long A_bar_fresh = 0, B_bar_fresh = 0;
  CBar C_bar = CBar::Read;
  SgdOn sgd = SgdOn::None;
  double lr = 0;
  GemmAdjoints() = default;
  GemmAdjoints(long long a_fresh, long long b_fresh, CBar c, SgdOn sgd = SgdOn::None, double lr = 0)
      : A_bar_fresh(a_fresh), B_bar_fresh(b_fresh), C_bar(c), sgd(sgd), lr(lr) {}
};

// A strided batch of GEMMs (cublas<t>gemmStridedBatched): GEMM i reads A + i stride_A and
// B + i stride_B and writes C + i stride_C. One GEMM by default.
struct Batch {
  long long stride_A = 0, stride_B = 0, stride_C = 0;
  int count = 1;
  Batch() = default;
  Batch(long long a, long long b, long long c, int count) : stride_A(a), stride_B(b), stride_C(c), count(count) {}
};

// The math of a GEMM: as the handle's math mode says (cublasSgemm / cublasDgemm) by default; a
// compute type and algorithm (cublasGemmEx) when the forward gave them, which its pullback and
// tangent then use too.
struct GemmMath {
  bool ex = false;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  cublasGemmAlgo_t algorithm = CUBLAS_GEMM_DEFAULT;
  GemmMath() = default;
  GemmMath(cublasComputeType_t compute, cublasGemmAlgo_t algorithm)
      : ex(true), compute(compute), algorithm(algorithm) {}
};

namespace detail {

template <class T>
constexpr cudaDataType_t data_type() {
  return std::is_same<T, double>::value ? CUDA_R_64F : CUDA_R_32F;
}

// One operand of a batch: the matrix of GEMM 0 and the distance to the next GEMM's.
template <class T>
struct Strided {
  T* matrix;
  int ld;
  long long stride;
};

// C = alpha op(A) op(B) + beta C for each GEMM of a batch of `count`, with `math`. A C that the
// batch shares (stride 0: the adjoint of an operand the forward's batch broadcasts) sums the
// products in turn.
template <class T>
cudaError_t gemm_each(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* alpha,
                      Strided<const T> A, Strided<const T> B, const T* beta, Strided<T> C, int count, GemmMath math) {
  const T one = 1;
  const cudaDataType_t type = data_type<T>();
  if (count > 1 && C.stride == 0) {
    cudaError_t e = cudaSuccess;
    for (int i = 0; i < count && e == cudaSuccess; ++i)
      e = gemm_each(h, ta, tb, m, n, k, alpha, {A.matrix + i * A.stride, A.ld, 0}, {B.matrix + i * B.stride, B.ld, 0},
                    i == 0 ? beta : &one, C, 1, math);
    return e;
  }
  if (count == 1 && !math.ex)
    return gemm(h, ta, tb, m, n, k, alpha, A.matrix, A.ld, B.matrix, B.ld, beta, C.matrix, C.ld);
  if (count == 1)
    return as_cuda_error(cublasGemmEx(h, ta, tb, m, n, k, alpha, A.matrix, type, A.ld, B.matrix, type, B.ld, beta,
                                      C.matrix, type, C.ld, math.compute, math.algorithm));
  if (math.ex)
    return as_cuda_error(cublasGemmStridedBatchedEx(h, ta, tb, m, n, k, alpha, A.matrix, type, A.ld, A.stride, B.matrix,
                                                    type, B.ld, B.stride, beta, C.matrix, type, C.ld, C.stride, count,
                                                    math.compute, math.algorithm));
  if constexpr (std::is_same<T, double>::value)
    return as_cuda_error(cublasDgemmStridedBatched(h, ta, tb, m, n, k, alpha, A.matrix, A.ld, A.stride, B.matrix, B.ld,
                                                   B.stride, beta, C.matrix, C.ld, C.stride, count));
  else
    return as_cuda_error(cublasSgemmStridedBatched(h, ta, tb, m, n, k, alpha, A.matrix, A.ld, A.stride, B.matrix, B.ld,
                                                   B.stride, beta, C.matrix, C.ld, C.stride, count));
}

// The beta of a pullback GEMM into an adjoint (rows x cols, leading dimension ld): 1 to add into
// it; 0 to write a fresh one that one matrix covers; a fresh one it does not cover (or a batch's)
// is zeroed first.
template <class T>
cudaError_t adjoint_beta(cublasHandle_t h, T* bar, int rows, int cols, int ld, long long fresh, int count, T* beta) {
  *beta = T(1);
  if (!bar || fresh == 0) return cudaSuccess;
  if (count == 1 && ld == rows && static_cast<long long>(rows) * cols >= fresh) {
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
// for each GEMM of the batch, the adjoints strided as their operands; with the forward's math.
// A null A_bar or B_bar is not computed; `adjoints` as GemmAdjoints says.
template <class T>
cudaError_t gemm_vjp(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* alpha,
                     const T* A, int lda, const T* B, int ldb, const T* beta, int ldc,
                     typename NotDeduced<T>::type* A_bar, typename NotDeduced<T>::type* B_bar, T* C_bar,
                     GemmAdjoints adjoints = {}, Batch batch = {}, GemmMath math = {}) {
  using detail::Strided;
  const Strided<const T> A_{A, lda, batch.stride_A}, B_{B, ldb, batch.stride_B}, C_bar_{C_bar, ldc, batch.stride_C};
  const int count = batch.count;
  const T one = 1, step = T(-adjoints.lr) * *alpha;
  auto adjoint_of_A = [&] {
    T beta_A;
    const T* factor = adjoints.sgd == SgdOn::A ? &step : alpha;
    cudaError_t e = ta == CUBLAS_OP_N ? detail::adjoint_beta(h, A_bar, m, k, lda, adjoints.A_bar_fresh, count, &beta_A)
                                      : detail::adjoint_beta(h, A_bar, k, m, lda, adjoints.A_bar_fresh, count, &beta_A);
    const T* into = adjoints.sgd == SgdOn::A ? &one : &beta_A;
    Strided<T> A_bar_{A_bar, lda, batch.stride_A};
    if (e != cudaSuccess || !A_bar) return e;
    if (ta == CUBLAS_OP_N)
      return detail::gemm_each(h, CUBLAS_OP_N, transposed(tb), m, k, n, factor, C_bar_, B_, into, A_bar_, count, math);
    return detail::gemm_each(h, tb, CUBLAS_OP_T, k, m, n, factor, B_, C_bar_, into, A_bar_, count, math);
  };
  auto adjoint_of_B = [&] {
    T beta_B;
    const T* factor = adjoints.sgd == SgdOn::B ? &step : alpha;
    cudaError_t e = tb == CUBLAS_OP_N ? detail::adjoint_beta(h, B_bar, k, n, ldb, adjoints.B_bar_fresh, count, &beta_B)
                                      : detail::adjoint_beta(h, B_bar, n, k, ldb, adjoints.B_bar_fresh, count, &beta_B);
    const T* into = adjoints.sgd == SgdOn::B ? &one : &beta_B;
    Strided<T> B_bar_{B_bar, ldb, batch.stride_B};
    if (e != cudaSuccess || !B_bar) return e;
    if (tb == CUBLAS_OP_N)
      return detail::gemm_each(h, transposed(ta), CUBLAS_OP_N, k, n, m, factor, A_, C_bar_, into, B_bar_, count, math);
    return detail::gemm_each(h, CUBLAS_OP_T, ta, n, k, m, factor, C_bar_, A_, into, B_bar_, count, math);
  };
  // An operand updated in place goes last: the other operand's adjoint reads it.
  cudaError_t e = adjoints.sgd == SgdOn::A ? adjoint_of_B() : adjoint_of_A();
  if (e == cudaSuccess) e = adjoints.sgd == SgdOn::A ? adjoint_of_A() : adjoint_of_B();
  for (int i = 0; i < count && e == cudaSuccess && adjoints.C_bar == CBar::Read; ++i)
    e = scale(h, m, n, beta, C_bar + i * batch.stride_C, ldc);
  return e;
}
template <class T>
cudaError_t gemm_vjp(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* alpha,
                     const T* A, int lda, const T* B, int ldb, const T* beta, int ldc,
                     typename NotDeduced<T>::type* A_bar, typename NotDeduced<T>::type* B_bar, T* C_bar,
                     GemmAdjoints adjoints, GemmMath math) {
  return gemm_vjp(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, ldc, A_bar, B_bar, C_bar, adjoints, Batch(), math);
}

// The tangent of C = alpha op(A) op(B) + beta C, for each GEMM of the batch, with its math:
//   C_dot = alpha (op(A_dot) op(B) + op(A) op(B_dot)) + beta C_dot
template <class T>
cudaError_t gemm_jvp(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* alpha,
                     const T* A, int lda, const T* B, int ldb, const T* beta, int ldc, const T* A_dot, const T* B_dot,
                     T* C_dot, Batch batch = {}, GemmMath math = {}) {
  using detail::Strided;
  const T one = 1;
  const Strided<const T> A_{A, lda, batch.stride_A}, B_{B, ldb, batch.stride_B};
  const Strided<const T> A_dot_{A_dot, lda, batch.stride_A}, B_dot_{B_dot, ldb, batch.stride_B};
  const Strided<T> C_dot_{C_dot, ldc, batch.stride_C};
  cudaError_t e = detail::gemm_each(h, ta, tb, m, n, k, alpha, A_dot_, B_, beta, C_dot_, batch.count, math);
  return e == cudaSuccess ? detail::gemm_each(h, ta, tb, m, n, k, alpha, A_, B_dot_, &one, C_dot_, batch.count, math)
                          : e;
}
template <class T>
cudaError_t gemm_jvp(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* alpha,
                     const T* A, int lda, const T* B, int ldb, const T* beta, int ldc, const T* A_dot, const T* B_dot,
                     T* C_dot, GemmMath math) {
  return gemm_jvp(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, ldc, A_dot, B_dot, C_dot, Batch(), math);
}

}  // namespace adjoint
