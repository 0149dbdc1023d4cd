// CUDA in Clang's AST: the built-in index variables, the calls that Adjoint differentiates
// itself rather than through rules, and the execution space of functions.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <string>

#include "ad/ir/Function.h"

namespace adjoint::frontend::cuda {

// "threadIdx.x" for threadIdx.x (and blockIdx, blockDim, gridDim, warpSize); empty for anything else.
std::string builtinVariable(const clang::Expr* e);
// Barriers and the active mask: kept in the IR as calls by name (warp shuffles have linear rules).
bool isKeptCall(llvm::StringRef name);
// The loads with a cache hint (__ldg, __ldcs, ...): differentiated as the load *p they are.
bool isCachedLoad(llvm::StringRef name);
// The stores with a cache hint (__stcs, __stwt, ...): differentiated as the store *p = v they are.
bool isCachedStore(llvm::StringRef name);
// Device intrinsics and CUDA-only math, spelled as called in the generated code (not std::).
bool isIntrinsic(llvm::StringRef name);
// Marks `f` __global__, __device__ or __host__ __device__ as `fd` is.
void setExecutionSpace(const clang::FunctionDecl* fd, ir::Function& f);
// Whether `vd` is a __shared__ variable.
bool isShared(const clang::VarDecl* vd);

}  // namespace adjoint::frontend::cuda
