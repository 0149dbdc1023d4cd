// Const member functions of structs of scalars (`double energy(double x) const`), called on a
// struct parameter (`s.energy(x)`): each becomes a function of the translation unit,
// `<Struct>_<method>`, taking the object by const reference as its first parameter, `self`, whose
// fields its body reads (see Converter.h).
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

namespace {

// A method Adjoint differentiates: const, not virtual, of a struct, not a lambda's.
bool differentiableMethod(const CXXMethodDecl* m) {
  return m && m->isConst() && !m->isVirtual() && !m->getParent()->isLambda() && !m->isOverloadedOperator();
}

}  // namespace

bool Converter::isConstMethod(const FunctionDecl* fd) {
  return differentiableMethod(dyn_cast_or_null<CXXMethodDecl>(fd));
}

// object.method(args): the method's function called with the object first.
ir::ExprPtr Converter::convertMethodCall(const CXXMemberCallExpr* call) {
  const CXXMethodDecl* method = call->getMethodDecl();
  if (!differentiableMethod(method))
    return unsupportedExpr(call, "calls of member functions other than const, non-virtual ones are not supported",
                           "make the member function const (it may read the object's fields), or call a free function");
  const FunctionDecl* def = method->getDefinition();
  if (!def)
    return unsupportedExpr(call, "member function '" + method->getQualifiedNameAsString() + "' has no body here",
                           "define it in this translation unit");
  // On a local struct (a local per field) the method is inlined, its fields read where they are.
  const Expr* self = call->getImplicitObjectArgument();
  std::string why = isStructParameter(self) ? inliningReason(call, def) : "its object is a local struct";
  if (!why.empty()) return inlineCall(call, def, self, why);
  ir::ExprPtr object = convertExpr(self);
  if (!object->type.isStruct())
    return unsupportedExpr(call, "this member function's object is not supported",
                           "call member functions on struct parameters and local structs");
  std::vector<ir::ExprPtr> args{object};
  for (const Expr* a : call->arguments()) args.push_back(convertExpr(a));
  auto type = convertType(call->getType(), call->getSourceRange(), /*allowVoid=*/true);
  if (!type) return placeholder();
  enqueue(def);
  return ir::call(irName(def), args, *type);
}

// The method's function takes the object first, as `self` (by const reference).
void Converter::addSelfParam(const FunctionDecl* fd, ir::Function& f) {
  const auto* m = cast<CXXMethodDecl>(fd);
  auto t = convertType(m->getThisType()->getPointeeType().getUnqualifiedType(), fd->getSourceRange());
  if (!t) return;
  t->constRef = true;
  selfName_ = "self";
  for (const ParmVarDecl* p : fd->parameters())
    if (p->getNameAsString() == selfName_) selfName_ += "_";
  selfType_ = *t;
  f.params.push_back({selfName_, *t});
}

// `this`, inside a method's function: its `self` parameter.
ir::ExprPtr Converter::convertThis(const Expr* e) {
  if (selfName_.empty())
    return unsupportedExpr(e, "'this' is not supported here", "differentiate const member functions of structs");
  return ir::var(selfName_, selfType_);
}

}  // namespace adjoint::frontend::detail
