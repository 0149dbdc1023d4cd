// Const member functions of structs of scalars (`double energy(double x) const`), called on a
// struct parameter (`s.energy(x)`): each becomes a function of the translation unit,
// `<Struct>_<method>`, taking the object by const reference as its first parameter, `self`, whose
// fields its body reads (see Converter.h). Called on a local struct, a method is inlined, and
// one that is not const (`b.step(f, dt)`) assigns the local's fields.
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

namespace {

// A method Adjoint differentiates: not virtual, of a struct, not a lambda's.
bool differentiableMethod(const CXXMethodDecl* m) {
  return m && !m->isVirtual() && !m->getParent()->isLambda() && !m->isOverloadedOperator();
}

}  // namespace

bool Converter::isConstMethod(const FunctionDecl* fd) {
  const auto* m = dyn_cast_or_null<CXXMethodDecl>(fd);
  return differentiableMethod(m) && m->isConst();
}

// Whether `object` is a local struct (a local per field), or the object of a method inlined on one.
bool Converter::isLocalStruct(const Expr* object) const {
  object = object->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(object)) return !thisFields_.empty();
  const auto* ref = dyn_cast<DeclRefExpr>(object);
  return ref && structLocals_.count(dyn_cast<VarDecl>(ref->getDecl()));
}

// object.method(args): the method's function called with the object first.
ir::ExprPtr Converter::convertMethodCall(const CXXMemberCallExpr* call) {
  const CXXMethodDecl* method = call->getMethodDecl();
  if (!differentiableMethod(method))
    return unsupportedExpr(call, "calls of virtual member functions and operators are not supported",
                           "call a non-virtual member function, or a free function");
  const Expr* self = call->getImplicitObjectArgument();
  if (!method->isConst() && !isLocalStruct(self))
    return unsupportedExpr(call, "a member function that is not const is called here on a struct that is not a local",
                           "copy the struct into a local and call the member function on that, or make it const");
  const FunctionDecl* def = method->getDefinition();
  if (!def)
    return unsupportedExpr(call, "member function '" + method->getQualifiedNameAsString() + "' has no body here",
                           "define it in this translation unit");
  // On a local struct (a local per field) the method is inlined, its fields read where they are.
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

// f(x) of a function object `f` (a struct whose operator() the program defines): the operator
// inlined on the object, as a method called on a local struct is.
ir::ExprPtr Converter::convertFunctionObjectCall(const CXXOperatorCallExpr* call) {
  const auto* method = dyn_cast_or_null<CXXMethodDecl>(call->getDirectCallee());
  const FunctionDecl* def = method ? method->getDefinition() : nullptr;
  if (!def || method->isVirtual() || !isOwnDifferentiated(def))
    return unsupportedExpr(call, "this call of a function object is not supported",
                           "define a non-virtual operator() in the struct, in this translation unit");
  const Expr* object = call->getArg(0);
  if (!method->isConst() && !isLocalStruct(object))
    return unsupportedExpr(call,
                           "a function object whose operator() is not const is called here on a struct that is "
                           "not a local",
                           "copy the struct into a local and call that, or make its operator() const");
  return inlineCall(call, def, object, "a function object's operator()");
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
