// Host code over kernels: kernel launches (K<<<grid, block, shmem, stream>>>(args)), the launch
// configurations they take (dim3 locals), and the handle types passed through untouched
// (cudaStream_t, cublasHandle_t, ...).
#include <clang/AST/Attr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>

#include <functional>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

namespace {

// The types host code passes through without looking inside: CUDA's streams and events, the
// handles of cuBLAS and cuBLASLt, launch configurations, and enumerations (cublasOperation_t).
bool isPassedThrough(QualType qt) {
  if (qt->isEnumeralType()) return true;
  std::string name = qt.getUnqualifiedType().getAsString();
  static const char* const kHandles[] = {"cudaStream_t", "cudaEvent_t", "cublasHandle_t", "cublasLtHandle_t", "dim3"};
  for (const char* h : kHandles)
    if (name == h) return true;
  return false;
}

}  // namespace

std::vector<const Expr*> explicitArgs(const CXXConstructExpr* c) {
  std::vector<const Expr*> out;
  for (const Expr* a : c->arguments())
    if (!isa<CXXDefaultArgExpr>(a)) out.push_back(a);
  return out;
}

std::optional<ir::Type> Converter::passedThroughType(QualType qt) {
  if (!isPassedThrough(qt)) return std::nullopt;
  return ir::Type::opaque(qt.getUnqualifiedType().getAsString());
}

// A value of a passed-through type: dim3(a, b) is the call dim3(a, b); a dim3 converted from an
// integer (a kernel launched with <<<blocks, 256>>>) is the integer.
ir::ExprPtr Converter::convertConstructed(const Expr* e) {
  const Expr* inner = e->IgnoreImplicit()->IgnoreParens();
  if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(inner)) inner = m->getSubExpr()->IgnoreImplicit();
  if (const auto* f = dyn_cast<CXXFunctionalCastExpr>(inner)) inner = f->getSubExpr()->IgnoreImplicit();
  const auto* c = dyn_cast<CXXConstructExpr>(inner);
  if (!c) return convertExpr(inner);
  std::vector<const Expr*> args = explicitArgs(c);
  if (args.size() == 1 && (c->getConstructor()->isCopyOrMoveConstructor() || !isa<CXXTemporaryObjectExpr>(c)))
    return convertConstructed(args[0]);
  auto type = convertType(c->getType(), c->getSourceRange());
  if (!type) return placeholder();
  std::vector<ir::ExprPtr> converted;
  for (const Expr* a : args) converted.push_back(convertExpr(a));
  return ir::call(type->spelled, converted, *type);
}

// An argument of a launch: a value, or a pointer into a buffer (`xs + l * n`) as the sum of the
// buffer and the offset.
ir::ExprPtr Converter::convertLaunchArgument(const Expr* e) {
  if (!e->getType()->isPointerType()) return convertExpr(e);
  std::optional<PointerValue> p = pointerValue(e);
  return p ? pointerSum(*p) : placeholder();
}

// The array pointed into, plus the offset where there is one.
ir::ExprPtr Converter::pointerSum(const PointerValue& p) {
  return p.offset ? ir::binary(ir::Op::Add, p.base, p.offset) : p.base;
}

// An argument of a call of the user's function in device or CPU code: a pointer into an array
// (a row pointer, x + i) as the array plus the offset, like a launch's argument; anything else
// (a whole array, a pointer Adjoint cannot follow) as an expression.
ir::ExprPtr Converter::convertCallArgument(const Expr* e) {
  bool into = e->getType()->isPointerType() && (!isa<DeclRefExpr>(e->IgnoreImpCasts()) || isPointerAlias(e));
  std::optional<PointerValue> p = into ? pointerValue(e) : std::nullopt;
  return p && p->width == 1 ? pointerSum(*p) : convertExpr(e);
}

// Whether fd's body launches kernels, calls cuBLAS or the CUDA runtime's copies, or calls a
// function that does: host code, whose calls pass pointers into buffers.
bool Converter::isHostCode(const FunctionDecl* fd) {
  if (!fd || !fd->hasBody() || fd->hasAttr<CUDAGlobalAttr>() || fd->hasAttr<CUDADeviceAttr>()) return false;
  auto known = hostCode_.find(fd);
  if (known != hostCode_.end()) return known->second;
  hostCode_[fd] = false;  // while visiting: recursion adds nothing
  bool host = false;
  std::function<void(const Stmt*)> visit = [&](const Stmt* s) {
    if (!s || host) return;
    if (isa<CUDAKernelCallExpr>(s)) host = true;
    if (const auto* call = dyn_cast<CallExpr>(s))
      host |= isLibraryCall(call) || (call->getDirectCallee() && isHostCode(call->getDirectCallee()->getDefinition()));
    for (const Stmt* child : s->children()) visit(child);
  };
  visit(fd->getBody());
  return hostCode_[fd] = host;
}

bool Converter::isLibraryCall(const CallExpr* call) const {
  const FunctionDecl* fd = call->getDirectCallee();
  if (!fd || !sm_.isInSystemHeader(fd->getLocation())) return false;
  llvm::StringRef name = fd->getName();
  return name.starts_with("cublas") || name.starts_with("cudaMemset") || name.starts_with("cudaMemcpy");
}

// A call of a library that host code uses (cuBLAS, the CUDA runtime's memset and memcpy): its arguments as written,
// pointers into buffers as offsets, the addresses of the scalars it reads (&alpha), and its enumerators by name
// (CUBLAS_OP_T).
ir::StmtPtr Converter::convertLibraryCall(const CallExpr* call) {
  std::vector<ir::ExprPtr> args;
  for (const Expr* a : call->arguments()) {
    const Expr* bare = a->IgnoreParenImpCasts();
    const auto* ref = dyn_cast<DeclRefExpr>(bare);
    const auto* address = dyn_cast<UnaryOperator>(bare);
    if (a->getType()->isPointerType() && a->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNotNull)) {
      // A null stream or pointer, spelled as written: 0 (or NULL), or nullptr.
      args.push_back(isa<CXXNullPtrLiteralExpr>(bare) ? ir::var("nullptr", ir::Type::opaque("std::nullptr_t"))
                                                      : ir::number(0, ir::Type::integer()));
    } else if (ref && isa<EnumConstantDecl>(ref->getDecl())) {
      args.push_back(ir::var(ref->getDecl()->getNameAsString(), ir::Type::opaque(bare->getType().getAsString())));
    } else if (address && address->getOpcode() == UO_AddrOf && isa<DeclRefExpr>(address->getSubExpr())) {
      args.push_back(ir::unary(ir::Op::AddressOf, convertExpr(address->getSubExpr())));
    } else {
      args.push_back(convertLaunchArgument(a));
    }
  }
  std::string name = call->getDirectCallee()->getNameAsString();
  if (llvm::StringRef(name).ends_with("_v2")) name.resize(name.size() - 3);  // cublas_v2.h's macros
  auto type = convertType(call->getType(), call->getSourceRange(), /*allowVoid=*/true);
  if (!type) return nullptr;
  return ir::at(ir::eval(ir::call(name, args, *type)), loc(call->getBeginLoc()));
}

ir::StmtPtr Converter::convertLaunch(const CUDAKernelCallExpr* launch) {
  const FunctionDecl* kernel = launch->getDirectCallee();
  const FunctionDecl* def = kernel ? kernel->getDefinition() : nullptr;
  if (!def || !def->doesThisDeclarationHaveABody()) {
    report_.error(launch->getSourceRange(), "launch of a kernel whose body Adjoint cannot see",
                  "define the kernel in this translation unit");
    return nullptr;
  }
  const CallExpr* config = launch->getConfig();
  std::vector<ir::ExprPtr> configuration;
  for (unsigned i = 0; i < 4; ++i) {
    const Expr* a = i < config->getNumArgs() ? config->getArg(i) : nullptr;
    if (!a || isa<CXXDefaultArgExpr>(a))
      configuration.push_back(ir::number(0, ir::Type::integer(i == 2 ? "size_t" : "int")));
    else
      configuration.push_back(i < 2 ? convertConstructed(a) : convertExpr(i == 3 ? a->IgnoreImpCasts() : a));
  }
  std::vector<ir::ExprPtr> args;
  for (const Expr* a : launch->arguments()) args.push_back(convertLaunchArgument(a));
  enqueue(def);
  return ir::at(ir::launch(ir::call(irName(def), args, ir::Type::of(ir::Scalar::Void)), configuration),
                loc(launch->getBeginLoc()));
}

}  // namespace adjoint::frontend::detail
