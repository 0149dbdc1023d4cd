#include "ad/frontend/Cuda.h"

#include <clang/AST/Attr.h>
#include <clang/AST/ExprCXX.h>

namespace adjoint::frontend::cuda {

using namespace clang;

std::string builtinVariable(const Expr* e) {
  e = e->IgnoreParenImpCasts();
  if (const auto* ref = dyn_cast<DeclRefExpr>(e))
    return ref->getDecl()->getName() == "warpSize" && !ref->getDecl()->getDeclContext()->isFunctionOrMethod()
               ? "warpSize"
               : "";
  // threadIdx.x is a property (declspec(property)) of a built-in object, read through a
  // pseudo-object expression.
  const auto* pseudo = dyn_cast<PseudoObjectExpr>(e);
  const auto* property = pseudo ? dyn_cast<MSPropertyRefExpr>(pseudo->getSyntacticForm()->IgnoreParens()) : nullptr;
  if (!property) return "";
  const Expr* object = property->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto* opaque = dyn_cast<OpaqueValueExpr>(object)) object = opaque->getSourceExpr()->IgnoreParenImpCasts();
  const auto* base = dyn_cast_or_null<DeclRefExpr>(object);
  if (!base) return "";
  llvm::StringRef name = base->getDecl()->getName();
  if (name != "threadIdx" && name != "blockIdx" && name != "blockDim" && name != "gridDim") return "";
  return (name + "." + property->getPropertyDecl()->getName()).str();
}

bool isKeptCall(llvm::StringRef name) {
  return name == "__syncthreads" || name == "__syncwarp" || name == "__activemask";
}

bool isCachedLoad(llvm::StringRef name) {
  return name == "__ldg" || name == "__ldca" || name == "__ldcg" || name == "__ldcs" || name == "__ldlu" ||
         name == "__ldcv";
}

bool isCachedStore(llvm::StringRef name) {
  return name == "__stcs" || name == "__stcg" || name == "__stwb" || name == "__stwt";
}

bool isIntrinsic(llvm::StringRef name) { return name.starts_with("__") || name == "rsqrt" || name == "rsqrtf"; }

void setExecutionSpace(const FunctionDecl* fd, ir::Function& f) {
  f.kernel = fd->hasAttr<CUDAGlobalAttr>();
  f.device = fd->hasAttr<CUDADeviceAttr>();
  f.host = !f.kernel && (!f.device || fd->hasAttr<CUDAHostAttr>());
}

bool isShared(const VarDecl* vd) { return vd->hasAttr<CUDASharedAttr>(); }

}  // namespace adjoint::frontend::cuda
