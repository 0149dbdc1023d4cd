// The cuBLAS GEMMs of host code, as steps: cublasSgemm / cublasDgemm, cublasGemmEx, and the
// strided batched forms (cublasSgemmStridedBatched / cublasDgemmStridedBatched,
// cublasGemmStridedBatchedEx). Each is read into one shape (the operands, their leading
// dimensions and strides, the batch, the math) and differentiated by adjoint::gemm_vjp /
// gemm_jvp (runtime/adjoint/cublas.h), whose GEMMs use the forward's compute type and algorithm.
#pragma once

#include <string>

#include "ad/derive/HostSteps.h"

namespace adjoint::derive {

bool isGemm(const std::string& callee);

// The step of a GEMM call: A and B read, C written (and read unless beta points to a local 0).
Step describeGemm(const ir::Stmt& s, const ir::Function& host, const ir::StmtList& locals);

// The elements of b's buffer (one of A, B, C) that the GEMMs touch, from where b points.
ir::ExprPtr gemmExtent(const Step& step, const BufferArg& b);

// The GEMM itself with `args` (its arguments, buffers replaced by versions).
ir::ExprPtr gemmCall(const Step& step, std::vector<ir::ExprPtr> args);
// Its pullback (adjoint::gemm_vjp) or tangent (adjoint::gemm_jvp) with `args` as above and the
// derivatives of A, B and C; `adjoints`, when not null, an adjoint::GemmAdjoints for the pullback.
ir::ExprPtr gemmDerivative(const Step& step, bool reverse, const std::vector<ir::ExprPtr>& args,
                           const std::vector<ir::ExprPtr>& derivatives, const ir::ExprPtr& adjoints);

}  // namespace adjoint::derive
