// Lambdas named by a local (`auto sq = [&](double v) { return w * v * v; };`) and called through
// it: each becomes a function of the translation unit, `<function>_<name>`, taking what it captures
// as its first parameters (by reference: the variable as it is at the call; by value: a copy made
// where the lambda is), and is differentiated like any called function (see Converter.h). One
// that writes into arrays or assigns a scalar it captures by reference is inlined where it is
// called instead.
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/LambdaCapture.h>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

const CXXRecordDecl* closureOf(const FunctionDecl* fd) {
  const auto* method = dyn_cast_or_null<CXXMethodDecl>(fd);
  return method && method->getParent()->isLambda() ? method->getParent() : nullptr;
}

namespace {

// Whether `body` assigns to the variable `v` itself (not through it: x[i] = ... writes an array).
bool assigns(const Stmt* body, const VarDecl* v) {
  if (!body) return false;
  const Expr* target = nullptr;
  if (const auto* b = dyn_cast<BinaryOperator>(body); b && b->isAssignmentOp()) target = b->getLHS();
  if (const auto* b = dyn_cast<CompoundAssignOperator>(body)) target = b->getLHS();
  if (const auto* u = dyn_cast<UnaryOperator>(body); u && u->isIncrementDecrementOp()) target = u->getSubExpr();
  if (const auto* ref = target ? dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts()) : nullptr;
      ref && ref->getDecl() == v)
    return true;
  for (const Stmt* child : body->children())
    if (assigns(child, v)) return true;
  return false;
}

}  // namespace

bool Converter::isLambdaCallOperator(const FunctionDecl* fd) { return closureOf(fd) != nullptr; }

// auto name = [captures](params) { body };  names the lambda; what it captures by value is copied
// here, as the closure copies it (`double name_b = b;`), and passed from that copy.
bool Converter::declareLambda(const VarDecl* vd, ir::StmtList& out) {
  lambdaNames_[vd->getType()->getAsCXXRecordDecl()] = "";  // (reported: its calls need no report of their own)
  const auto* lambda = vd->getInit() ? dyn_cast<LambdaExpr>(vd->getInit()->IgnoreImplicit()) : nullptr;
  if (!lambda) {
    fail(vd->getSourceRange(), "this lambda is not supported", "initialize a local with the lambda expression itself");
    return false;
  }
  return nameLambda(lambda, vd->getNameAsString(), out);
}

// The lambda as the function `<function>_<name>`, its copies of what it captures by value
// declared in `out`; false after reporting why it cannot be.
bool Converter::nameLambda(const LambdaExpr* lambda, const std::string& name, ir::StmtList& out) {
  const CXXRecordDecl* closure = lambda->getLambdaClass();
  lambdaNames_[closure] = "";
  if (lambda->isMutable()) {
    fail(lambda->getSourceRange(), "a mutable lambda keeps state between its calls, which is not supported",
         "capture by reference what the lambda changes, or write a function");
    return false;
  }
  for (const LambdaCapture& c : lambda->captures()) {
    const auto* v = c.capturesVariable() ? dyn_cast<VarDecl>(c.getCapturedVar()) : nullptr;
    if (!v) {
      fail(c.getLocation(), "capturing 'this' is not supported", "capture the values the lambda needs");
      return false;
    }
    if (structLocals_.count(v)) {  // (a local per field: there is no whole struct to pass)
      fail(c.getLocation(), "the lambda captures the local struct '" + v->getNameAsString() + "'",
           "copy the fields it needs into scalars and capture those");
      return false;
    }
    // (its calls are inlined: the body then assigns the variable itself)
    if (c.getCaptureKind() == LCK_ByRef && !v->getType()->isPointerType() &&
        !ctx_.getAsConstantArrayType(v->getType()) && !standardContainer(v->getType()) &&
        assigns(lambda->getBody(), v) && !assignedCaptures_.count(closure))
      assignedCaptures_[closure] = v->getNameAsString();
  }
  for (const LambdaCapture& c : lambda->captures()) {
    const auto* v = cast<VarDecl>(c.getCapturedVar());
    if (c.getCaptureKind() != LCK_ByCopy || v->getType()->isPointerType()) continue;  // a pointer's copy is the same
    if (!v->getType()->isScalarType()) {
      fail(c.getLocation(), "the lambda copies the array or container '" + v->getNameAsString() + "'",
           "capture it by reference ([&" + v->getNameAsString() + "])");
      return false;
    }
    ir::ExprPtr value = convertVariable(v, c.getLocation());
    std::string copy = freshName(name + "_" + v->getNameAsString());
    out.push_back(ir::at(ir::decl(copy, value->type, value), loc(c.getLocation())));
    captureCopies_[{closure, v}] = ir::var(copy, value->type);
  }
  lambdaNames_[closure] = currentFunction_ + "_" + name;
  return true;
}

// name(args): the call of the lambda's function, with what it captures first; inlined where it
// writes into arrays (see arraysWrittenReason), its copies of what it captures by value read
// where the lambda's body names those variables.
ir::ExprPtr Converter::convertLambdaCall(const CXXOperatorCallExpr* call) {
  const auto* method = dyn_cast_or_null<CXXMethodDecl>(call->getDirectCallee());
  auto name = lambdaNames_.find(method ? method->getParent() : nullptr);
  if (std::string why = method ? lambdaInliningReason(method) : ""; !why.empty() && name != lambdaNames_.end()) {
    if (name->second.empty()) return placeholder();
    std::map<const VarDecl*, ir::ExprPtr> copies;
    for (const auto& [key, copy] : captureCopies_)
      if (key.first == method->getParent()) copies[key.second] = copy;
    return inlineCall(call, method->getDefinition() ? cast<FunctionDecl>(method->getDefinition()) : method, nullptr,
                      why, copies);
  }
  std::vector<ir::ExprPtr> args;
  for (unsigned i = 1; i < call->getNumArgs(); ++i) args.push_back(convertExpr(call->getArg(i)));
  return lambdaCall(method, args, call);
}

// The call of a named lambda's function (its call operator `method`) on `args`, with what it
// captures first; `call` is where the program calls it.
ir::ExprPtr Converter::lambdaCall(const CXXMethodDecl* method, std::vector<ir::ExprPtr> args, const Expr* call) {
  auto name = lambdaNames_.find(method ? method->getParent() : nullptr);
  if (name == lambdaNames_.end())
    return unsupportedExpr(call, "this call of a lambda is not supported",
                           "name the lambda by a local (auto f = [...](...) { ... };) and call it by that name");
  if (name->second.empty()) return placeholder();
  if (std::string why = lambdaInliningReason(method); !why.empty())
    return unsupportedExpr(call, "this lambda must be inlined (" + why + "), which cannot be done here",
                           "call it by its name in a statement, or write the loop out");
  std::vector<ir::ExprPtr> captures;
  for (const LambdaCapture& c : method->getParent()->captures()) {
    const auto* v = cast<VarDecl>(c.getCapturedVar());
    if (pointers_.count(v))
      return unsupportedExpr(call, "the lambda captures the pointer '" + v->getNameAsString() + "'",
                             "capture the array it points into");
    auto copy = captureCopies_.find({method->getParent(), v});
    captures.push_back(copy != captureCopies_.end() ? copy->second : convertVariable(v, call->getSourceRange()));
  }
  args.insert(args.begin(), captures.begin(), captures.end());
  auto type = convertType(method->getReturnType(), call->getSourceRange(), /*allowVoid=*/true);
  if (!type) return placeholder();
  enqueue(method->getDefinition() ? cast<FunctionDecl>(method->getDefinition()) : method);
  return ir::call(irName(method), args, *type);
}

// Why the calls of a lambda are inlined, or "": it writes into arrays (arraysWrittenReason) or
// assigns a scalar it captures by reference, which its function would take as a copy.
std::string Converter::lambdaInliningReason(const CXXMethodDecl* method) const {
  if (auto assigned = assignedCaptures_.find(method->getParent()); assigned != assignedCaptures_.end())
    return "it assigns to '" + assigned->second + "', which it captures by reference";
  return arraysWrittenReason(method);
}

// The lambda's function takes its captures first, typed as the variables are (arrays as pointers).
void Converter::addCaptureParams(const FunctionDecl* fd, ir::Function& f) {
  for (const LambdaCapture& c : closureOf(fd)->captures()) {
    const auto* v = cast<VarDecl>(c.getCapturedVar());
    auto t = convertType(v->getType(), v->getSourceRange());
    if (!t) continue;
    if (t->arraySize > 0) *t = t->element().pointerTo(false);
    // A container captured by reference is the caller's own: writable unless it is const.
    if (t->isContainer() && c.getCaptureKind() == LCK_ByRef)
      t->constPointee = v->getType().getNonReferenceType().isConstQualified();
    captured_[v] = *t;
    f.params.push_back({v->getNameAsString(), *t});
  }
}

std::string Converter::lambdaName(const FunctionDecl* fd) const {
  auto it = lambdaNames_.find(closureOf(fd));
  return it == lambdaNames_.end() ? "" : it->second;
}

}  // namespace adjoint::frontend::detail
