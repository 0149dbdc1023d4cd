// Host code over cuBLAS: GEMMs differentiated at the matrix level (A_bar += alpha C_bar op(B)^T,
// B_bar += alpha op(A)^T C_bar, C_bar = beta C_bar), with kernels between them.
#include <cublas_v2.h>

// C (m x n) = A^T B, A stored k x m, B stored k x n: the transpositions of a linear layer.
// HOST: gemm_tn A=[30] B=[20] C=[24] m=6 n=4 k=5
void gemm_tn(cublasHandle_t handle, const float* A, const float* B, float* C, int m, int n, int k) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, A, k, B, k, &beta, C, m);
}

// C += 0.5 A B^T, in double: beta 1 reads C, leading dimensions larger than the rows.
// HOST: gemm_nt_accumulate A=[35] B=[28] C=[28] m=5 n=4 k=6
void gemm_nt_accumulate(cublasHandle_t handle, const double* A, const double* B, double* C, int m, int n, int k) {
  const double alpha = 0.5, beta = 1.0;
  cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &alpha, A, m + 1, B, n, &beta, C, m + 2);
}

// C = A^T B^T and C = A B: the other two transpositions.
// HOST: gemm_tt_nn A=[12] B=[12] C=[9] D=[9] m=3 n=3 k=4
void gemm_tt_nn(cublasHandle_t handle, const float* A, const float* B, float* C, float* D, int m, int n, int k) {
  const float alpha = 2.0f, beta = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_T, m, n, k, &alpha, A, k, B, n, &beta, C, m);
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, m, &alpha, C, m, C, m, &beta, D, m);
}

// The layer of gemm_tn through cublasGemmEx: its pullback's GEMMs use the same compute type.
// HOST: gemm_ex A=[30] B=[20] C=[24] m=6 n=4 k=5
void gemm_ex(cublasHandle_t handle, const float* A, const float* B, float* C, int m, int n, int k) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, A, CUDA_R_32F, k, B, CUDA_R_32F, k, &beta, C,
               CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// A batch of GEMMs that shares one weight matrix (stride 0), as a layer applied to a batch of
// sequences is: the weight's adjoint sums the batch's. Beta 0.5 reads Y.
// HOST: batched_shared_weight W=[12] X=[36] Y=[27] m=3 n=3 k=4 batches=3
void batched_shared_weight(cublasHandle_t handle, const double* W, const double* X, double* Y, int m, int n, int k,
                           int batches) {
  const double alpha = 1.0, beta = 0.5;
  cublasDgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, W, m, 0, X, k, k * n, &beta, Y, m,
                            m * n, batches);
}

// A batch of transposed products through cublasGemmStridedBatchedEx, every operand strided.
// HOST: batched_ex A=[24] B=[16] C=[12] m=3 n=2 k=4 batches=2
void batched_ex(cublasHandle_t handle, const float* A, const float* B, float* C, int m, int n, int k, int batches) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmStridedBatchedEx(handle, CUBLAS_OP_T, CUBLAS_OP_T, m, n, k, &alpha, A, CUDA_R_32F, k, k * m, B, CUDA_R_32F,
                             n, n * k, &beta, C, CUDA_R_32F, m, m * n, batches, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// ReLU of a layer's pre-activation plus bias, in place; rows of `cols` features, column-major.
__global__ void bias_relu(float* h, const float* bias, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols) h[i] = fmaxf(h[i] + bias[i % cols], 0.0f);
}

__global__ void mean_squared(const float* out, const float* target, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float r = out[i] - target[i];
  atomicAdd(loss, r * r / n);
}

// Two layers and a loss, as hand-written training code lays them out: X is B x D (stored as
// D x B column-major), W1 D x H, W2 H x C; intermediates passed in by the caller.
// HOST: mlp X=[40] W1=[30] b1=[6] W2=[18] b2=[3] Y=[24] H=[48] O=[24] loss=[1] B=8 D=5 Hd=6 C=3
void mlp(cublasHandle_t handle, const float* X, const float* W1, const float* b1, const float* W2, const float* b2,
         const float* Y, float* H, float* O, float* loss, int B, int D, int Hd, int C) {
  const float one = 1.0f, zero = 0.0f;
  int threads = 64;
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, Hd, B, D, &one, W1, D, X, D, &zero, H, Hd);
  bias_relu<<<(B * Hd + threads - 1) / threads, threads>>>(H, b1, B, Hd);
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, C, B, Hd, &one, W2, Hd, H, Hd, &zero, O, C);
  bias_relu<<<(B * C + threads - 1) / threads, threads>>>(O, b2, B, C);
  mean_squared<<<(B * C + threads - 1) / threads, threads>>>(O, Y, loss, B * C);
}

// Training steps of the two layers, one per optimizer, against the unfused reference.
// TRAIN: mlp params=W1,b1,W2,b2 optimizer=sgd X=[40] W1=[30] b1=[6] W2=[18] b2=[3] Y=[24] H=[48] O=[24] loss=[1] B=8 D=5 Hd=6 C=3
// TRAIN: mlp params=W1,b2 optimizer=momentum X=[40] W1=[30] b1=[6] W2=[18] b2=[3] Y=[24] H=[48] O=[24] loss=[1] B=8 D=5 Hd=6 C=3
// TRAIN: mlp params=W1,b1,W2,b2 optimizer=adamw X=[40] W1=[30] b1=[6] W2=[18] b2=[3] Y=[24] H=[48] O=[24] loss=[1] B=8 D=5 Hd=6 C=3

// A layer over padded matrices (leading dimensions above the rows), as slices of larger
// allocations are: the pullback of its GEMM writes all of X's adjoint but not all of W's, which
// it zeroes first.
// TRAIN: padded params=W,X optimizer=sgd X=[24] W=[35] T=[24] Y=[24] loss=[1] m=5 n=4 k=6
void padded(cublasHandle_t handle, const float* X, const float* W, const float* T, float* Y, float* loss, int m, int n,
            int k) {
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &one, W, m + 1, X, n, &zero, Y, m + 1);
  mean_squared<<<1, 64>>>(Y, T, loss, (m + 1) * n);
}

// A shared weight over a batch of sequences (cublasGemmStridedBatchedEx, stride 0 for W), trained.
// TRAIN: batched_layer params=W optimizer=adamw W=[12] X=[36] T=[27] Y=[27] loss=[1] m=3 n=3 k=4 batches=3
void batched_layer(cublasHandle_t handle, const float* W, const float* X, const float* T, float* Y, float* loss, int m,
                   int n, int k, int batches) {
  const float one = 1.0f, zero = 0.0f;
  cublasGemmStridedBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, W, CUDA_R_32F, m, 0, X, CUDA_R_32F, k,
                             k * n, &zero, Y, CUDA_R_32F, m, m * n, batches, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  mean_squared<<<1, 64>>>(Y, T, loss, m * n * batches);
}

// A layer as a function of its own, called once per layer with that layer's weights at an offset
// into one buffer, its output after the previous one's (inputs kept away from ReLU's kink).
void linear(cublasHandle_t handle, const float* X, const float* W, const float* b, float* Y, int B, int in, int out) {
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, out, B, in, &one, W, in, X, in, &zero, Y, out);
  bias_relu<<<(B * out + 63) / 64, 64>>>(Y, b, B, out);
}

// HOST: stacked X=[20:0:1] W=[32:0:0.5] b=[8:0.1:0.5] H=[40] B=5 D=4
// TRAIN: stacked params=W,b optimizer=momentum X=[20:0:1] W=[32:0:0.5] b=[8:0.1:0.5] H=[40] B=5 D=4 loss-name=H
void stacked(cublasHandle_t handle, const float* X, const float* W, const float* b, float* H, int B, int D) {
  linear(handle, X, W, b, H, B, D, D);
  linear(handle, H, W + D * D, b + D, H + B * D, B, D, D);
}
