// cuBLAS on the CPU execution of kernels (adjoint/cuda_cpu.h), for tests on machines without a
// GPU: handles, streams and math modes, and reference GEMMs computed as cuBLAS defines them
// (column-major). The entry points are templates over the element type, so that the float64
// reference build (adjoint/float64.h, where every float is a double) calls them unchanged.
#pragma once

#include "adjoint/cuda_cpu.h"

enum cublasStatus_t {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_NOT_SUPPORTED = 15
};
enum cublasOperation_t { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 };
enum cublasMath_t { CUBLAS_DEFAULT_MATH = 0, CUBLAS_PEDANTIC_MATH = 2, CUBLAS_TF32_TENSOR_OP_MATH = 3 };
enum cudaDataType_t { CUDA_R_32F = 0, CUDA_R_64F = 1, CUDA_R_16F = 2, CUDA_R_16BF = 14 };
using cudaDataType = cudaDataType_t;
enum cublasComputeType_t {
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_PEDANTIC = 69,
  CUBLAS_COMPUTE_64F = 70,
  CUBLAS_COMPUTE_32F_FAST_16F = 74,
  CUBLAS_COMPUTE_32F_FAST_16BF = 75,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77
};
enum cublasGemmAlgo_t { CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99 };

struct cublasContext {
  cudaStream_t stream = nullptr;
  cublasMath_t math = CUBLAS_DEFAULT_MATH;
};
using cublasHandle_t = cublasContext*;

inline cublasStatus_t cublasCreate(cublasHandle_t* handle) {
  *handle = new cublasContext;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasDestroy(cublasHandle_t handle) {
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream) {
  handle->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t* stream) {
  *stream = handle->stream;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  handle->math = mode;
  return CUBLAS_STATUS_SUCCESS;
}

namespace adjoint::cpu {

// Element (i, j) of op(X), X stored column-major with leading dimension ld.
template <class T>
T element(const T* X, int ld, cublasOperation_t op, int i, int j) {
  return op == CUBLAS_OP_N ? X[i + static_cast<size_t>(j) * ld] : X[j + static_cast<size_t>(i) * ld];
}

// C = alpha op(A) op(B) + beta C, op(A) m x k, op(B) k x n; C is not read when beta is 0.
template <class T>
cublasStatus_t gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* alpha, const T* A,
                    int lda, const T* B, int ldb, const T* beta, T* C, int ldc) {
  if (m < 0 || n < 0 || k < 0 || ldc < std::max(1, m)) return CUBLAS_STATUS_INVALID_VALUE;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      T sum = T(0);
      for (int l = 0; l < k; ++l) sum += element(A, lda, ta, i, l) * element(B, ldb, tb, l, j);
      T& c = C[i + static_cast<size_t>(j) * ldc];
      c = *alpha * sum + (*beta == T(0) ? T(0) : *beta * c);
    }
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace adjoint::cpu

template <class T>
cublasStatus_t cublasSgemm(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                           const T* alpha, const T* A, int lda, const T* B, int ldb, const T* beta, T* C, int ldc) {
  return adjoint::cpu::gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
template <class T>
cublasStatus_t cublasDgemm(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                           const T* alpha, const T* A, int lda, const T* B, int ldb, const T* beta, T* C, int ldc) {
  return adjoint::cpu::gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

// The strided batched forms: GEMM i on A + i strideA, B + i strideB, C + i strideC.
template <class T>
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                         int k, const T* alpha, const T* A, int lda, long long strideA, const T* B,
                                         int ldb, long long strideB, const T* beta, T* C, int ldc, long long strideC,
                                         int count) {
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  for (int i = 0; i < count && status == CUBLAS_STATUS_SUCCESS; ++i)
    status = adjoint::cpu::gemm(ta, tb, m, n, k, alpha, A + i * strideA, lda, B + i * strideB, ldb, beta,
                                C + i * strideC, ldc);
  return status;
}
template <class T>
cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                         int k, const T* alpha, const T* A, int lda, long long strideA, const T* B,
                                         int ldb, long long strideB, const T* beta, T* C, int ldc, long long strideC,
                                         int count) {
  return cublasSgemmStridedBatched(h, ta, tb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC,
                                   count);
}

// The Ex forms on the types Adjoint differentiates (float and double; in the float64 reference
// build `float` is a double too); the compute type and algorithm change nothing here.
inline cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                                                 int n, int k, const void* alpha, const void* A, cudaDataType_t typeA,
                                                 int lda, long long strideA, const void* B, cudaDataType_t typeB,
                                                 int ldb, long long strideB, const void* beta, void* C,
                                                 cudaDataType_t typeC, int ldc, long long strideC, int count,
                                                 cublasComputeType_t, cublasGemmAlgo_t) {
  if (typeA != typeB || typeA != typeC || (typeA != CUDA_R_32F && typeA != CUDA_R_64F))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (typeA == CUDA_R_64F)
    return cublasSgemmStridedBatched(h, ta, tb, m, n, k, static_cast<const double*>(alpha),
                                     static_cast<const double*>(A), lda, strideA, static_cast<const double*>(B), ldb,
                                     strideB, static_cast<const double*>(beta), static_cast<double*>(C), ldc, strideC,
                                     count);
  return cublasSgemmStridedBatched(h, ta, tb, m, n, k, static_cast<const float*>(alpha), static_cast<const float*>(A),
                                   lda, strideA, static_cast<const float*>(B), ldb, strideB,
                                   static_cast<const float*>(beta), static_cast<float*>(C), ldc, strideC, count);
}
inline cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                   const void* alpha, const void* A, cudaDataType_t typeA, int lda, const void* B,
                                   cudaDataType_t typeB, int ldb, const void* beta, void* C, cudaDataType_t typeC,
                                   int ldc, cublasComputeType_t compute, cublasGemmAlgo_t algorithm) {
  return cublasGemmStridedBatchedEx(h, ta, tb, m, n, k, alpha, A, typeA, lda, 0, B, typeB, ldb, 0, beta, C, typeC, ldc,
                                    0, 1, compute, algorithm);
}

// C = alpha op(A) + beta op(B); C may be A (with ldc = lda, op(A) = A).
template <class T>
cublasStatus_t cublasSgeam(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n, const T* alpha,
                           const T* A, int lda, const T* beta, const T* B, int ldb, T* C, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      T a = *alpha == T(0) ? T(0) : *alpha * adjoint::cpu::element(A, lda, ta, i, j);
      T b = *beta == T(0) ? T(0) : *beta * adjoint::cpu::element(B, ldb, tb, i, j);
      C[i + static_cast<size_t>(j) * ldc] = a + b;
    }
  return CUBLAS_STATUS_SUCCESS;
}
template <class T>
cublasStatus_t cublasDgeam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, const T* alpha,
                           const T* A, int lda, const T* beta, const T* B, int ldb, T* C, int ldc) {
  return cublasSgeam(h, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);
}
