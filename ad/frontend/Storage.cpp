// CUDA's 16-bit floating types as storage, the main type of training code: arrays of
// __nv_bfloat16 or __half whose elements a kernel reads widened to float (__bfloat162float(x[i]),
// (float)x[i], float v = x[i]) and writes rounded from float (y[i] = __float2bfloat16(v),
// y[i] = (__half)v, y[i] = v), computing in float in between. The IR keeps such an array a float
// array of that storage (ir::Type::storage): its arithmetic is float's, and the rounding of a
// store, whose derivative is taken as 1, is the printer's (adjoints are stored the same way).
// Arithmetic on the 16-bit values themselves (x[i] * w[i] through cuda_bf16.h's operators) and
// locals of those types are not supported; pairs of them (__nv_bfloat162) are Pairs.cpp's.
#include <clang/AST/ExprCXX.h>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

namespace {

// __bfloat162float, __half2float: an element widened to float.
bool widens(llvm::StringRef name) { return name == "__bfloat162float" || name == "__half2float"; }

// __float2bfloat16, __float2half and their round-to-nearest spellings: a float rounded to 16 bits.
bool rounds(llvm::StringRef name) {
  return name == "__float2bfloat16" || name == "__float2bfloat16_rn" || name == "__float2half" ||
         name == "__float2half_rn";
}

// The function `e` calls, where it is named by a plain identifier (not an operator).
const FunctionDecl* calleeOf(const Expr* e) {
  const auto* call = dyn_cast<CallExpr>(e);
  const FunctionDecl* fd = call ? call->getDirectCallee() : nullptr;
  return fd && fd->getIdentifier() ? fd : nullptr;
}

const char* kComputeInFloat =
    "compute in float: read an element with __bfloat162float(x[i]) (or (float)x[i]) and store "
    "__float2bfloat16(v)";

}  // namespace

bool Converter::isStorageConversion(const Expr* e) const {
  if (const auto* m = dyn_cast<CXXMemberCallExpr>(e)) {
    const auto* conversion = dyn_cast_or_null<CXXConversionDecl>(m->getMethodDecl());
    return conversion && !storageFormat(m->getImplicitObjectArgument()->getType()).empty();
  }
  const FunctionDecl* fd = calleeOf(e);
  return fd && (widens(fd->getName()) || rounds(fd->getName()) || widensHalf(fd->getName()));
}

// __bfloat162float(x[i]), x[i].operator float(): the element's value, as float.
ir::ExprPtr Converter::convertStorageConversion(const Expr* e) {
  if (const auto* m = dyn_cast<CXXMemberCallExpr>(e)) return storedValue(m->getImplicitObjectArgument());
  if (ir::ExprPtr half = pairHalf(e)) return half;
  return storedValue(cast<CallExpr>(e)->getArg(0));
}

// The float value of `e`, an expression of a 16-bit type (an element, a conversion from float)
// or of an arithmetic type about to be converted to one.
ir::ExprPtr Converter::storedValue(const Expr* e) {
  e = e->IgnoreParens();
  if (const auto* c = dyn_cast<CastExpr>(e); c && !c->getType()->isArithmeticType()) {
    if (c->getCastKind() == CK_NoOp || c->getCastKind() == CK_LValueToRValue ||
        c->getCastKind() == CK_ConstructorConversion || c->getCastKind() == CK_UserDefinedConversion)
      return storedValue(c->getSubExpr());
  }
  if (const auto* t = dyn_cast<MaterializeTemporaryExpr>(e)) return storedValue(t->getSubExpr());
  if (const auto* t = dyn_cast<CXXBindTemporaryExpr>(e)) return storedValue(t->getSubExpr());
  if (const auto* ctor = dyn_cast<CXXConstructExpr>(e); ctor && ctor->getNumArgs() == 1)
    return storedValue(ctor->getArg(0));  // a copy, or __nv_bfloat16(v) from a float
  if (const FunctionDecl* fd = calleeOf(e); fd && rounds(fd->getName()))
    return storedValue(cast<CallExpr>(e)->getArg(0));
  if (isa<ArraySubscriptExpr>(e) && !storageFormat(e->getType()).empty()) return convertExpr(e);
  if (const auto* m = dyn_cast<MemberExpr>(e); m && !pairFormat(m->getBase()->getType()).empty())
    return pairField(e, m->getBase(), m->getMemberDecl()->getNameAsString());  // v.x of a pair
  if (ir::ExprPtr half = pairHalf(e)) return half;                             // __low2bfloat16(v)
  if (e->getType()->isArithmeticType()) {
    ir::ExprPtr value = convertExpr(e);
    return value->type.scalar == ir::Scalar::Float ? value : ir::cast(ir::Type::of(ir::Scalar::Float), value);
  }
  return unsupportedExpr(e, "this 16-bit floating value is not supported", kComputeInFloat);
}

// y[i] = v for an element y[i] of a 16-bit array (y[i] = __float2bfloat16(v), y[i] = x[i], ...).
bool Converter::isStorageAssignment(const Expr* e) const {
  const auto* op = dyn_cast<CXXOperatorCallExpr>(e->IgnoreImplicit());
  return op && op->getNumArgs() == 2 && op->isAssignmentOp() && !storageFormat(op->getArg(0)->getType()).empty();
}

ir::StmtPtr Converter::convertStorageAssignment(const Expr* e) {
  const auto* op = cast<CXXOperatorCallExpr>(e->IgnoreImplicit());
  if (op->getOperator() != OO_Equal) {
    fail(op->getSourceRange(), "compound assignment to a 16-bit element is not supported", kComputeInFloat);
    return nullptr;
  }
  const Expr* target = op->getArg(0)->IgnoreParenImpCasts();
  if (!isa<ArraySubscriptExpr>(target) && !isa<UnaryOperator>(target)) {
    fail(target->getSourceRange(), "a local of a 16-bit floating type is not supported",
         "keep values in float and store them into the array rounded: y[i] = __float2bfloat16(v)");
    return nullptr;
  }
  return ir::at(ir::assign(convertExpr(target), ir::Op::Assign, storedValue(op->getArg(1))), loc(e->getBeginLoc()));
}

}  // namespace adjoint::frontend::detail
