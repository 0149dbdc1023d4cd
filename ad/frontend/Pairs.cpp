// CUDA's pairs of 16-bit values, __nv_bfloat162 and __half2, as training kernels use them: a view
// of a 16-bit buffer two elements at a time (reinterpret_cast<const __nv_bfloat162*>(x)[i]), a
// pair copied into a local, widened to float (__bfloat1622float2(v), __low2float(v), v.x), and a
// pair made from floats (__floats2bfloat162_rn(a, b), __float22bfloat162_rn(f)) stored into a
// view. A pair local is a struct local of two floats (x, y) holding 16-bit values exactly; a pair
// made from floats is rounded where it is stored into the buffer (ir::Type::storage), so a local
// it is assigned to may be copied into a buffer but not read as floats: those reads would see
// the values before rounding. Arithmetic on pairs (__hmul2, a * b) is not supported.
#include <clang/AST/ExprCXX.h>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

namespace {

// The callee's name where `e` calls a function named by an identifier, else "".
std::string calleeName(const Expr* e) {
  const auto* call = dyn_cast<CallExpr>(e);
  const FunctionDecl* fd = call ? call->getDirectCallee() : nullptr;
  return fd && fd->getIdentifier() ? fd->getName().str() : "";
}

// __low2bfloat16(v), __high2half(v), ...: a field of a pair, as a 16-bit value.
bool takesHalf(const std::string& name) {
  return name == "__low2bfloat16" || name == "__high2bfloat16" || name == "__low2half" || name == "__high2half";
}

// __bfloat1622float2(v), __half22float2(v): the pair as a float2.
bool widensPair(const std::string& name) { return name == "__bfloat1622float2" || name == "__half22float2"; }

// The functions making a pair: from two floats or a float2 (rounded to 16 bits), from one float
// (both fields), from two 16-bit values.
bool fromFloats(const std::string& name) { return name == "__floats2bfloat162_rn" || name == "__floats2half2_rn"; }
bool fromFloat2(const std::string& name) { return name == "__float22bfloat162_rn" || name == "__float22half2_rn"; }
bool fromFloat(const std::string& name) { return name == "__float2bfloat162_rn" || name == "__float2half2_rn"; }
bool fromHalves(const std::string& name) {
  return name == "__halves2bfloat162" || name == "__halves2half2" || name == "make_bfloat162" || name == "make_half2";
}
bool makesPair(const std::string& name) {
  return fromFloats(name) || fromFloat2(name) || fromFloat(name) || fromHalves(name);
}

const char* kReadRounded =
    "read the floats the pair was made from, or store the pair into the buffer and read its elements there";

}  // namespace

// __low2float(v), __high2float(v): a field of a pair, widened to float.
bool widensHalf(llvm::StringRef name) { return name == "__low2float" || name == "__high2float"; }

// "__nv_bfloat16" for __nv_bfloat162, "__half" for __half2 (the format of their fields), else "".
std::string pairFormat(QualType t) {
  const auto* record = t->getAsRecordDecl();
  if (!record) return "";
  std::string name = record->getName().str();
  return name == "__nv_bfloat162" ? "__nv_bfloat16" : name == "__half2" ? "__half" : "";
}

// A pair: a struct of the float fields x and y, defined by CUDA's header.
ir::Type Converter::convertPair(QualType t) {
  std::string name = t->getAsRecordDecl()->getName().str();
  auto it = structs_.find(name);
  if (it != structs_.end()) return ir::Type::structure(it->second);
  auto info = std::make_shared<ir::StructInfo>();
  info->name = name;
  info->header = pairFormat(t) == "__half" ? "<cuda_fp16.h>" : "<cuda_bf16.h>";
  for (const char* field : {"x", "y"})
    info->fields.emplace_back(field, std::make_shared<ir::Type>(ir::Type::of(ir::Scalar::Float)));
  structs_[name] = info;
  return ir::Type::structure(info);
}

// The pair locals that a function made from floats assigns (their fields hold values before
// rounding), and those copied from them, in the order the function is written.
void Converter::findRoundedPairs(const FunctionDecl* fd) {
  roundedPairs_.clear();
  auto rounded = [&](const Expr* value) {
    value = structValue(value)->IgnoreParenImpCasts();
    const auto* ref = dyn_cast<DeclRefExpr>(value);
    return makesPair(calleeName(value)) || (ref && roundedPairs_.count(dyn_cast<VarDecl>(ref->getDecl())));
  };
  visitAll(fd->getBody(), [&](const Stmt* s) {
    if (const auto* ds = dyn_cast<DeclStmt>(s))
      for (const Decl* d : ds->decls())
        if (const auto* vd = dyn_cast<VarDecl>(d);
            vd && !pairFormat(vd->getType()).empty() && vd->getInit() && rounded(vd->getInit()))
          roundedPairs_.insert(vd);
    const auto* op = dyn_cast<CXXOperatorCallExpr>(s);
    if (!op || op->getOperator() != OO_Equal || pairFormat(op->getArg(0)->getType()).empty()) return;
    const auto* target = dyn_cast<DeclRefExpr>(op->getArg(0)->IgnoreParenImpCasts());
    if (target && rounded(op->getArg(1))) roundedPairs_.insert(dyn_cast<VarDecl>(target->getDecl()));
  });
}

// Field `field` of the pair `pair`, read as a float by `whole`.
ir::ExprPtr Converter::pairField(const Expr* whole, const Expr* pair, const std::string& field) {
  const auto* ref = dyn_cast<DeclRefExpr>(structValue(pair)->IgnoreParenImpCasts());
  if (ref && roundedPairs_.count(dyn_cast<VarDecl>(ref->getDecl())))
    return unsupportedExpr(whole, "a pair made from floats is read here before it is rounded to 16 bits", kReadRounded);
  return fieldOf(pair, field);
}

// A call that reads a field of a pair as a float (__low2float, __high2float) or as a 16-bit
// value (__low2bfloat16, ...); that value, or null for any other expression.
ir::ExprPtr Converter::pairHalf(const Expr* e) {
  std::string name = calleeName(e);
  if (!widensHalf(name) && !takesHalf(name)) return nullptr;
  const auto* call = cast<CallExpr>(e);
  return pairField(e, call->getArg(0), name.find("low") != std::string::npos ? "x" : "y");
}

// Field `field` of a pair or float2 that a call makes: __bfloat1622float2(v)'s of v, and the
// argument __floats2bfloat162_rn(a, b) or __halves2bfloat162(a, b) takes for it (the rounding
// to 16 bits is where the pair is stored); null for any other call.
ir::ExprPtr Converter::pairCallField(const CallExpr* call, const std::string& field) {
  std::string name = calleeName(call);
  unsigned k = field == "x" ? 0 : 1;
  if (widensPair(name)) return pairField(call, call->getArg(0), field);
  if (fromFloat2(name)) return fieldOf(call->getArg(0), field);
  if (fromFloats(name)) return convertExpr(call->getArg(k));
  if (fromFloat(name)) return convertExpr(call->getArg(0));
  if (fromHalves(name)) return storedValue(call->getArg(k));
  if (!pairFormat(call->getType()).empty())
    return unsupportedExpr(call, "arithmetic on pairs of 16-bit values is not supported",
                           "widen the pair to float (__bfloat1622float2(v)), compute in float and store the result "
                           "with __floats2bfloat162_rn(a, b)");
  return nullptr;
}

}  // namespace adjoint::frontend::detail
