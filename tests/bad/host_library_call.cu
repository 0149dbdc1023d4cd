// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cu 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK: host_library_call.cu:9:3: error: a call to 'cublasSaxpy' is not supported in host code over kernels
// CHECK: note: {{.*}}launches kernels, calls cuBLAS GEMMs (cublasSgemm / cublasDgemm, cublasGemmEx, their strided batched forms), zeroes or copies with
#include <cublas_v2.h>

void f(cublasHandle_t handle, const float* x, float* y, int n) {
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, 1, n, &one, x, n, x, n, &zero, y, n);
  cublasSaxpy(handle, n, &one, x, 1, y, 1);
}
