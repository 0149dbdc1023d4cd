#include "ad/frontend/AstToIr.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <deque>
#include <map>
#include <set>
#include <sstream>

#include "ad/frontend/Constructs.h"
#include "ad/frontend/Converter.h"
#include "ad/frontend/Cuda.h"

namespace adjoint::frontend::detail {

ir::SourceLoc Converter::loc(SourceLocation l) const {
  PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(l));
  if (p.isInvalid()) return {};
  return {p.getLine(), p.getColumn()};
}

ir::Type Converter::fail(SourceRange r, const std::string& msg, const std::string& hint) {
  report_.error(r, msg, hint);
  return ir::Type::of(ir::Scalar::Double);
}

std::string Converter::spelling(const FunctionDecl* fd) const {
  // A lambda's and a method's function: <function>_<lambda>, <Struct>_<method>.
  std::string name = isLambdaCallOperator(fd) ? lambdaName(fd)
                     : isConstMethod(fd)
                         ? cast<CXXMethodDecl>(fd)->getParent()->getNameAsString() + "_" + fd->getNameAsString()
                         : fd->getQualifiedNameAsString();
  if (const TemplateArgumentList* args = fd->getTemplateSpecializationArgs()) {
    std::string list;
    llvm::raw_string_ostream out(list);
    for (unsigned k = 0; k < args->size(); ++k) {
      if (k) out << ", ";
      args->get(k).print(ctx_.getPrintingPolicy(), out, true);
    }
    name += "<" + out.str() + ">";
  }
  return name;
}

std::string Converter::irName(const FunctionDecl* fd) const { return ir::functionName(spelling(fd)); }

// "adjoint/rules.h" for a declaration in a header the frontend serves from memory; else empty.
std::string Converter::runtimeHeader(const Decl* d) const {
  llvm::StringRef file = sm_.getFilename(d->getLocation());
  return file.consume_front("/adjoint-builtin/") ? file.str() : "";
}

// The functions the main file defines, in namespaces and extern "C" blocks too, and the
// instantiations of its function templates.
void Converter::collectDefinitions(const DeclContext* dc, std::vector<const FunctionDecl*>& defs) {
  for (const Decl* d : dc->decls()) {
    if (isa<NamespaceDecl>(d) || isa<LinkageSpecDecl>(d)) {
      collectDefinitions(cast<DeclContext>(d), defs);
    } else if (const auto* fd = dyn_cast<FunctionDecl>(d)) {
      if (fd->doesThisDeclarationHaveABody() && sm_.isInMainFile(fd->getLocation())) defs.push_back(fd);
    } else if (const auto* t = dyn_cast<FunctionTemplateDecl>(d); t && sm_.isInMainFile(t->getLocation())) {
      templates_.push_back(t);
      for (const FunctionDecl* spec : t->specializations())
        if (spec->getDefinition() == spec && spec->doesThisDeclarationHaveABody()) defs.push_back(spec);
    } else if (const auto* record = dyn_cast<CXXRecordDecl>(d); record && sm_.isInMainFile(record->getLocation())) {
      for (const CXXMethodDecl* m : record->methods()) methods_.push_back(m);
    }
  }
}

std::vector<const FunctionDecl*> Converter::definitionsInMainFile() {
  std::vector<const FunctionDecl*> defs;
  collectDefinitions(ctx_.getTranslationUnitDecl(), defs);
  return defs;
}

// The member function that `--fn Struct::method` names, defined in its class or outside it:
// differentiated as its calls are, as the function <Struct>_<method> taking the object first.
const FunctionDecl* Converter::methodNamed(const std::string& name) {
  for (const CXXMethodDecl* m : methods_)
    if (m->getQualifiedNameAsString() == name && !m->isImplicit())
      if (const FunctionDecl* def = m->getDefinition()) return def;
  return nullptr;
}

// Why `name` names no function Adjoint can differentiate, when it names a template or a method.
bool Converter::explainNotFound(const std::string& name) {
  for (const FunctionTemplateDecl* t : templates_) {
    if (ir::functionName(t->getQualifiedNameAsString()) != name) continue;
    std::string instances;
    for (const FunctionDecl* spec : t->specializations()) instances += (instances.empty() ? "" : ", ") + spelling(spec);
    report_.error(t->getSourceRange(),
                  "'" + t->getQualifiedNameAsString() + "' is a function template: name an instantiation",
                  instances.empty()
                      ? "call it with the types you need in this file, then --fn " + t->getNameAsString() + "<double>"
                      : "instantiated here: --fn " + instances);
    return true;
  }
  for (const CXXMethodDecl* m : methods_) {
    if (m->getNameAsString() != name && ir::functionName(m->getQualifiedNameAsString()) != name) continue;
    report_.error(m->getSourceRange(), "'" + m->getQualifiedNameAsString() + "' is a member function",
                  "name it with its struct: --fn " + m->getQualifiedNameAsString());
    return true;
  }
  return false;
}

void Converter::enqueue(const FunctionDecl* fd) {
  if (queued_.insert(fd).second) pending_.push_back(fd);
}

bool Converter::markedNondifferentiable(const Decl* d) {
  for (const auto* a : d->specific_attrs<AnnotateAttr>())
    if (a->getAnnotation() == "adjoint::nondifferentiable") return true;
  return false;
}

// A function that calls one whose cooperative groups assume one-dimensional blocks assumes them
// too: the launchers of a kernel's derivatives check the blocks for every function it calls.
void Converter::markOneDimensionalBlocks() {
  for (bool changed = true; changed;) {
    changed = false;
    for (ir::Function& f : module_.functions) {
      if (f.oneDimensionalBlocks) continue;
      ir::walkExprs(f.body, [&](const ir::Expr& e) {
        const ir::Function* callee = e.kind == ir::ExprKind::Call ? module_.find(e.text) : nullptr;
        f.oneDimensionalBlocks |= callee && callee->oneDimensionalBlocks;
      });
      changed |= f.oneDimensionalBlocks;
    }
  }
}

std::optional<ir::Module> Converter::run(const std::vector<std::string>& roots) {
  if (!readRules()) return std::nullopt;
  std::vector<const FunctionDecl*> defs = definitionsInMainFile();
  if (roots.empty())
    for (const FunctionDecl* fd : defs) enqueue(fd);
  for (const std::string& name : roots) {
    const FunctionDecl* found = nullptr;
    for (const FunctionDecl* fd : defs)
      if (!found && irName(fd) == ir::functionName(name)) found = fd;
    if (!found) found = methodNamed(name);
    if (!found && explainNotFound(ir::functionName(name))) continue;
    if (!found) {
      std::string candidates;
      for (const FunctionDecl* fd : defs) candidates += (candidates.empty() ? "" : ", ") + spelling(fd);
      std::string file = "this file";
      if (auto entry = sm_.getFileEntryRefForID(sm_.getMainFileID())) file = "'" + entry->getName().str() + "'";
      report_.error(SourceRange(), "no function named '" + name + "' is defined in " + file,
                    candidates.empty() ? "the file defines no functions" : "functions defined here: " + candidates);
      continue;
    }
    requireDeclarableEnums(found);
    enqueue(found);
    module_.roots.push_back(irName(found));
  }
  while (!pending_.empty()) {
    const FunctionDecl* fd = pending_.front();
    pending_.pop_front();
    module_.functions.push_back(convertFunction(fd));
  }
  if (report_.failed()) return std::nullopt;
  markOneDimensionalBlocks();
  ir::Module module = std::move(module_);
  llvm::StringRef text = sm_.getBufferData(sm_.getMainFileID());
  std::istringstream lines(text.str());
  for (std::string l; std::getline(lines, l);) module.sourceLines.push_back(l);
  if (auto entry = sm_.getFileEntryRefForID(sm_.getMainFileID())) module.sourcePath = entry->getName().str();
  // Every file the parse read, for build systems' dependency tracking (--depfile).
  for (auto it = sm_.fileinfo_begin(); it != sm_.fileinfo_end(); ++it) {
    llvm::StringRef name = it->first.getName();
    if (!name.starts_with("/adjoint-builtin/")) module.dependencies.push_back(name.str());
  }
  std::sort(module.dependencies.begin(), module.dependencies.end());
  return module;
}

ir::Function Converter::convertFunction(const FunctionDecl* fd) {
  ir::Function f;
  f.name = irName(fd);
  f.spelling = spelling(fd);
  f.loc = loc(fd->getLocation());
  f.runtimeHeader = runtimeHeader(fd);
  f.nondifferentiable = markedNondifferentiable(fd);
  cuda::setExecutionSpace(fd, f);
  currentIsDevice_ = f.kernel || f.device;
  if (isa<CXXMethodDecl>(fd) && !isLambdaCallOperator(fd) && !isConstMethod(fd))
    fail(fd->getSourceRange(), "member function '" + fd->getQualifiedNameAsString() + "' cannot be differentiated",
         "write it as a free function taking the object's fields as parameters");
  captured_.clear();
  selfName_.clear();
  if (isLambdaCallOperator(fd)) addCaptureParams(fd, f);
  if (isConstMethod(fd)) {
    addSelfParam(fd, f);
    f.memberName = fd->getNameAsString();
  }
  if (fd->isVariadic())
    fail(fd->getSourceRange(), "variadic function '" + fd->getNameAsString() + "' cannot be differentiated",
         "give the function a fixed list of parameters (pass an array and its length for a variable number of values)");
  if (auto t = convertType(fd->getReturnType(), fd->getReturnTypeSourceRange(), /*allowVoid=*/true)) f.returnType = *t;
  for (const ParmVarDecl* p : fd->parameters()) {
    ir::Param param;
    param.name = p->getNameAsString();
    param.nondifferentiable = markedNondifferentiable(p);
    if (param.name.empty())
      fail(p->getSourceRange(), "unnamed parameter", "give every parameter of a differentiated function a name");
    QualType declared = p->getOriginalType();
    if (declared->isArrayType() && ctx_.getAsArrayType(declared)->getElementType()->isArrayType())
      declared = p->getType();  // T a[4][3] is T (*a)[3]
    if (auto t = convertType(declared, p->getSourceRange())) param.type = *t;
    if (!param.type.storage.empty() && !f.kernel && !f.device)
      fail(p->getSourceRange(), "arrays of '" + param.type.storage + "' are supported in kernels and device functions",
           "differentiate the kernels that read and write them (host code over 16-bit buffers is not supported yet)");
    if (param.type.arraySize > 0)
      param.type = param.type.element().pointerTo(p->getType()->getPointeeType().isConstQualified());
    f.params.push_back(param);
  }
  beginFunction(fd, f.body);
  for (const auto& [v, type] : captured_) namesInFunction_.insert(v->getNameAsString());
  currentFunction_ = f.name;
  usesGroups_ = false;
  currentIsKernel_ = f.kernel;
  dynamicShared_ = false;
  ir::StmtList body = convertBody(fd->getBody());
  f.body.insert(f.body.begin(), tableDecls_.begin(), tableDecls_.end());
  f.body.insert(f.body.end(), body.begin(), body.end());
  f.oneDimensionalBlocks = usesGroups_;
  return f;
}

ir::ExprPtr Converter::unsupportedExpr(const Expr* e, const std::string& what, const std::string& hint) {
  report_.error(e->getSourceRange(), what, hint);
  return placeholder();
}

ir::ExprPtr Converter::needsNoStatements(const Expr* e, const std::string& what) {
  return unsupportedExpr(e, what + " is not supported in a derivative rule's partial",
                         "write the partial as one expression of the function's parameters");
}

ir::ExprPtr Converter::convertExpr(const Expr* e) {
  // Every later stage walks expressions recursively: keep their depth within what the stack of
  // the tool's pipeline thread (see Main.cpp) holds.
  struct DepthGuard {
    int& depth;
    explicit DepthGuard(int& d) : depth(++d) {}
    ~DepthGuard() { --depth; }
  } guard(exprDepth_);
  if (exprDepth_ > kMaxExprDepth) {
    if (!depthReported_)
      report_.error(e->getSourceRange(),
                    "expression nested more than " + std::to_string(kMaxExprDepth) + " levels deep",
                    "split it into several statements");
    depthReported_ = true;
    return placeholder();
  }
  e = e->IgnoreParens();
  if (const auto* constant = dyn_cast<ConstantExpr>(e)) return convertExpr(constant->getSubExpr());  // case labels
  // a field's default member initializer, where a braced list leaves the field out (S s = {a};)
  if (const auto* d = dyn_cast<CXXDefaultInitExpr>(e)) return convertExpr(d->getExpr());
  if (isa<PseudoObjectExpr>(e) || isa<DeclRefExpr>(e))
    if (std::string builtin = cuda::builtinVariable(e); !builtin.empty())
      return ir::var(builtin, builtin == "warpSize" ? ir::Type::integer() : ir::Type::integer("unsigned int", true));
  if (const auto* c = dyn_cast<CastExpr>(e)) return convertCast(c);
  if (const auto* f = dyn_cast<FloatingLiteral>(e)) {
    auto t = convertType(f->getType(), f->getSourceRange());
    if (!t) return placeholder();
    // M_PI and the other constants of <cmath> keep their names.
    if (f->getBeginLoc().isMacroID())
      if (std::string macro = Lexer::getImmediateMacroName(f->getBeginLoc(), sm_, ctx_.getLangOpts()).str();
          ir::isNamedConstant(macro))
        return ir::namedConstant(macro, f->getValueAsApproximateDouble(), *t);
    return ir::number(f->getValueAsApproximateDouble(), *t);
  }
  if (const auto* i = dyn_cast<IntegerLiteral>(e)) return convertIntegerLiteral(i);
  // sizeof(float) stays as written (byte counts of host code read as the source does); sizeof(a) /
  // sizeof(a[0]): a constant of its type.
  if (const auto* size = dyn_cast<UnaryExprOrTypeTraitExpr>(e);
      size && size->getKind() == UETT_SizeOf && size->isArgumentType() && size->getArgumentType()->isFloatingType())
    if (auto t = convertType(e->getType(), e->getSourceRange()))
      return ir::call("sizeof", {ir::var(size->getArgumentType().getAsString(), ir::Type::opaque("type"))}, *t);
  if (Expr::EvalResult size; isa<UnaryExprOrTypeTraitExpr>(e) && e->EvaluateAsInt(size, ctx_))
    if (auto t = convertType(e->getType(), e->getSourceRange()))
      return ir::number(static_cast<double>(size.Val.getInt().getZExtValue()), *t);
  if (isa<CXXThisExpr>(e)) return convertThis(e);
  // A pointer is followed where it is indexed or dereferenced; as a value it can only be a
  // parameter or a local array passed on whole.
  if (e->getType()->isPointerType() && (!isa<DeclRefExpr>(e->IgnoreImpCasts()) || isPointerAlias(e)))
    return unsupportedExpr(e, "a pointer can be indexed or dereferenced here, not passed on",
                           "pass the array itself (with the offset as another argument)");
  if (const auto* b = dyn_cast<CXXBoolLiteralExpr>(e)) return ir::boolean(b->getValue());
  if (const auto* ref = dyn_cast<DeclRefExpr>(e)) return convertDeclRef(ref);
  if (isPackElement(e)) return convertPackElement(e);
  if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e)) return elementAt(sub->getBase(), convertExpr(sub->getIdx()));
  // (Before unary operators: *std::max_element over a std::array or a C array dereferences a
  // plain pointer, over a std::vector an iterator's operator*.)
  if (isAlgorithm(e)) return algorithmValue(e);
  if (isStorageConversion(e)) return convertStorageConversion(e);
  if (const auto* u = dyn_cast<UnaryOperator>(e)) return convertUnary(u);
  if (const auto* b = dyn_cast<BinaryOperator>(e)) return convertBinary(b);
  if (const auto* c = dyn_cast<ConditionalOperator>(e)) return convertConditional(c);
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(e);
      op && op->getOperator() == OO_Subscript && standardContainer(op->getArg(0)->getType()))
    return convertSubscript(op);
  if (const auto* m = dyn_cast<CXXMemberCallExpr>(e)) {
    if (isGroupFunction(m->getMethodDecl())) return convertGroupFunction(m);
    if (standardContainer(m->getImplicitObjectArgument()->getType())) return convertContainerCall(m);
    return convertMethodCall(m);
  }
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(e);
      op && op->getOperator() == OO_Call && isLambdaCallOperator(op->getDirectCallee()))
    return convertLambdaCall(op);
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(e); op && op->getOperator() == OO_Call)
    return convertFunctionObjectCall(op);
  if (const auto* call = dyn_cast<CallExpr>(e)) return convertCall(call);
  if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) return convertExpr(m->getSubExpr());
  // A template's value parameter (BLOCK of template <int BLOCK>): the instantiation's constant.
  if (const auto* p = dyn_cast<SubstNonTypeTemplateParmExpr>(e)) return convertExpr(p->getReplacement());
  if (const auto* ctor = dyn_cast<CXXConstructExpr>(e);
      ctor && ctor->getConstructor()->isCopyOrMoveConstructor() && ctor->getNumArgs() == 1)
    return convertExpr(ctor->getArg(0));  // a struct passed by value
  if (const auto* me = dyn_cast<MemberExpr>(e)) {
    if (me->isArrow() && isa<CXXThisExpr>(me->getBase()->IgnoreParenImpCasts()) && isa<FieldDecl>(me->getMemberDecl()))
      return fieldOf(me->getBase(), me->getMemberDecl()->getNameAsString());  // a field in a method
    if (const auto* vd = dyn_cast<VarDecl>(me->getMemberDecl()); vd && vd->isStaticDataMember())
      if (ir::ExprPtr constant = foldedConstant(vd, me->getSourceRange())) return constant;  // p.size
    if (me->isArrow() || !isa<FieldDecl>(me->getMemberDecl()))
      return unsupportedExpr(e, "this member access is not supported", "read fields of struct parameters with '.'");
    return fieldOf(me->getBase(), me->getMemberDecl()->getNameAsString());
  }
  if (const auto* w = dyn_cast<ExprWithCleanups>(e)) return convertExpr(w->getSubExpr());
  if (const auto* d = dyn_cast<CXXDefaultArgExpr>(e)) return convertExpr(d->getExpr());
  if (isa<CXXThrowExpr>(e))
    return unsupportedExpr(e, "exceptions are not supported in differentiated code",
                           "report errors through return values");
  if (isa<LambdaExpr>(e))
    return unsupportedExpr(e, "lambdas are not supported in differentiated code",
                           "write the lambda as a function of its own");
  return unsupportedExpr(e, constructName(e) + " is not supported in a differentiated function", "");
}

// An integer literal keeps its spelling and type (`6364136223846793005ULL` stays exactly that).
ir::ExprPtr Converter::convertIntegerLiteral(const IntegerLiteral* i) {
  auto type = convertType(i->getType(), i->getSourceRange());
  if (!type) return placeholder();
  const llvm::APInt& v = i->getValue();
  double value = type->isUnsigned ? static_cast<double>(v.getZExtValue()) : static_cast<double>(v.getSExtValue());
  SourceLocation at = sm_.getSpellingLoc(i->getLocation());
  std::string spelling =
      at.isValid() ? Lexer::getSourceText(CharSourceRange::getTokenRange(at), sm_, ctx_.getLangOpts()).str() : "";
  if (spelling.empty() || !std::isdigit(static_cast<unsigned char>(spelling[0]))) return ir::number(value, *type);
  return ir::integerLiteral(value, *type, spelling);
}

ir::ExprPtr Converter::convertCast(const CastExpr* c) {
  switch (c->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_ArrayToPointerDecay:
    case CK_FunctionToPointerDecay:
    case CK_ToVoid:
      return convertExpr(c->getSubExpr());
    case CK_PointerToBoolean:
      return nullTest(c, c->getSubExpr(), true);
    case CK_IntegralToFloating:
    case CK_FloatingCast:
    case CK_FloatingToIntegral:
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
    case CK_FloatingToBoolean: {
      // An unscoped enumerator compared or computed with is promoted implicitly: `c == Green`.
      const auto* e = c->getSubExpr()->getType()->getAs<EnumType>();
      if (e && !e->getDecl()->isScoped() && isa<ImplicitCastExpr>(c) && c->getType()->isIntegerType())
        return convertExpr(c->getSubExpr());
      auto t = convertType(c->getType(), c->getSourceRange());
      return t ? ir::cast(*t, convertExpr(c->getSubExpr())) : placeholder();
    }
    case CK_UserDefinedConversion:  // (float)x[i] of a 16-bit element: its operator float
      if (isStorageConversion(c->getSubExpr()->IgnoreImplicit()))
        return convertStorageConversion(c->getSubExpr()->IgnoreImplicit());
      [[fallthrough]];
    default:
      return unsupportedExpr(c, std::string("cast '") + c->getCastKindName() + "' is not supported",
                             "only conversions between arithmetic types are differentiated");
  }
}

// The value of a constant scalar the program names (a global, a static member: x128::size), or
// null where it has none.
ir::ExprPtr Converter::foldedConstant(const VarDecl* vd, SourceRange where) {
  Expr::EvalResult value;
  if (!vd->getType().isConstQualified() || !vd->getInit() || !vd->getInit()->EvaluateAsRValue(value, ctx_))
    return nullptr;
  auto t = convertType(vd->getType(), where);
  if (t && value.Val.isFloat()) return ir::number(value.Val.getFloat().convertToDouble(), *t);
  if (t && value.Val.isInt()) return ir::number(static_cast<double>(value.Val.getInt().getSExtValue()), *t);
  return nullptr;
}

ir::ExprPtr Converter::convertDeclRef(const DeclRefExpr* ref) {
  const ValueDecl* d = ref->getDecl();
  if (const auto* ec = dyn_cast<EnumConstantDecl>(d)) {
    auto t = convertType(ref->getType(), ref->getSourceRange());
    if (!t) return placeholder();
    // The enumerator by name (Mode::Sine, ns::Red), the constant its enumeration gives it.
    return ir::integerLiteral(
        static_cast<double>(ec->getInitVal().getSExtValue()), *t,
        t->record ? ec->getQualifiedNameAsString() : std::to_string(ec->getInitVal().getSExtValue()));
  }
  if (const auto* b = dyn_cast<BindingDecl>(d); b && bindings_.count(b)) return bindings_.at(b);
  const auto* vd = dyn_cast<VarDecl>(d);
  if (!vd) return unsupportedExpr(ref, "reference to '" + d->getNameAsString() + "' is not supported", "");
  if (auto alias = elementAliases_.find(vd); alias != elementAliases_.end()) return alias->second;
  if (structLocals_.count(vd))
    return unsupportedExpr(
        ref, "the local struct '" + vd->getNameAsString() + "' can be used by its fields only",
        "read and assign its fields (" + vd->getNameAsString() + ".x); pass and return structs field by field");
  if (!vd->isLocalVarDeclOrParm()) {
    // A constant global folds to its value; mutable globals are state Adjoint cannot track.
    if (ir::ExprPtr constant = foldedConstant(vd, ref->getSourceRange())) return constant;
    if (vd->getType().isConstQualified())
      return unsupportedExpr(
          ref, "the constant '" + vd->getNameAsString() + "' can be read element by element here, not passed on",
          "index it (" + vd->getNameAsString() + "[i]), or copy it into a local array");
    return unsupportedExpr(ref, "global variable '" + vd->getNameAsString() + "' is not supported",
                           "pass it as a parameter, or make it a constant");
  }
  return convertVariable(vd, ref->getSourceRange());
}

// A local or parameter as a value (a reference parameter as its element, a lambda's capture as
// the lambda function's parameter).
ir::ExprPtr Converter::convertVariable(const VarDecl* vd, SourceRange where) {
  auto captured = captured_.find(vd);
  auto t = captured != captured_.end() ? std::optional<ir::Type>(captured->second) : convertType(vd->getType(), where);
  if (!t) return placeholder();
  if (t->arraySize > 0 && isa<ParmVarDecl>(vd)) *t = t->element().pointerTo(false);
  if (t->isContainer() && !isa<ParmVarDecl>(vd)) *t = localContainer(*t);
  if (t->reference) return ir::index(ir::var(localName(vd), *t), ir::number(0, ir::Type::integer()));
  t->shared = cuda::isShared(vd);
  return ir::var(localName(vd), *t);
}

ir::ExprPtr Converter::convertUnary(const UnaryOperator* u) {
  switch (u->getOpcode()) {
    case UO_Minus:
      return ir::neg(convertExpr(u->getSubExpr()));
    case UO_Plus:
      return convertExpr(u->getSubExpr());
    case UO_LNot:
      return ir::unary(ir::Op::Not, convertExpr(u->getSubExpr()));
    case UO_Deref:
      return elementAt(u->getSubExpr(), ir::number(0, ir::Type::integer()));
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec:
      return assignmentValue(u);
    case UO_AddrOf:
      return unsupportedExpr(u, "taking an address is not supported", "pass arrays as pointers, and return scalars");
    default:
      return unsupportedExpr(u, "operator '" + UnaryOperator::getOpcodeStr(u->getOpcode()).str() + "' is not supported",
                             "");
  }
}

std::optional<ir::Op> irOperator(BinaryOperatorKind kind) {
  switch (kind) {
    case BO_Assign:
      return ir::Op::Assign;
    case BO_Add:
    case BO_AddAssign:
      return ir::Op::Add;
    case BO_Sub:
    case BO_SubAssign:
      return ir::Op::Sub;
    case BO_Mul:
    case BO_MulAssign:
      return ir::Op::Mul;
    case BO_Div:
    case BO_DivAssign:
      return ir::Op::Div;
    case BO_Rem:
    case BO_RemAssign:
      return ir::Op::Rem;
    case BO_Shl:
    case BO_ShlAssign:
      return ir::Op::Shl;
    case BO_Shr:
    case BO_ShrAssign:
      return ir::Op::Shr;
    case BO_And:
    case BO_AndAssign:
      return ir::Op::BitAnd;
    case BO_Or:
    case BO_OrAssign:
      return ir::Op::BitOr;
    case BO_Xor:
    case BO_XorAssign:
      return ir::Op::BitXor;
    case BO_LT:
      return ir::Op::Lt;
    case BO_LE:
      return ir::Op::Le;
    case BO_GT:
      return ir::Op::Gt;
    case BO_GE:
      return ir::Op::Ge;
    case BO_EQ:
      return ir::Op::Eq;
    case BO_NE:
      return ir::Op::Ne;
    case BO_LAnd:
      return ir::Op::And;
    case BO_LOr:
      return ir::Op::Or;
    default:
      return std::nullopt;  // the comma operator, pointer-to-member, <=>
  }
}

ir::ExprPtr Converter::convertBinary(const BinaryOperator* b) {
  if (b->isAssignmentOp() || b->isCompoundAssignmentOp()) return assignmentValue(b);
  if (b->getOpcode() == BO_Comma) {
    // (a, b): a runs as a statement before the one that holds it, then the value is b.
    if (!prelude_) return needsNoStatements(b, "the comma operator");
    convertStmt(b->getLHS(), *prelude_);
    return convertExpr(b->getRHS());
  }
  std::optional<ir::Op> op = irOperator(b->getOpcode());
  if (!op) return unsupportedExpr(b, "operator '" + b->getOpcodeStr().str() + "' is not supported", "");
  if (b->isComparisonOp() && b->getLHS()->getType()->isPointerType()) return comparePointers(b);
  if (b->isLogicalOp()) return convertLogical(b, *op);
  ir::ExprPtr lhs = convertExpr(b->getLHS());
  return ir::binary(*op, lhs, convertExpr(b->getRHS()));
}

// The condition of `assert(c)`, which expands to `static_cast<bool>(c) ? void(0) : <failure>`;
// null for any other statement.
const Expr* Converter::assertedCondition(const Expr* e) const {
  SourceLocation at = e->getBeginLoc();
  if (!at.isMacroID() || Lexer::getImmediateMacroName(at, sm_, ctx_.getLangOpts()) != "assert") return nullptr;
  const auto* c = dyn_cast<ConditionalOperator>(e->IgnoreParenImpCasts());
  return c ? c->getCond()->IgnoreParenImpCasts() : nullptr;
}

// A floating constant of the library (INFINITY, which is __builtin_inff(); HUGE_VAL;
// std::numeric_limits<float>::max()): kept as written, a constant of its value. Null for any
// other call.
ir::ExprPtr Converter::libraryConstant(const CallExpr* call) {
  const FunctionDecl* fd = call->getDirectCallee();
  Expr::EvalResult value;
  if (call->getNumArgs() != 0 || !call->getType()->isFloatingType() ||
      !(fd->getBuiltinID() != 0 || sm_.isInSystemHeader(fd->getLocation())) || !call->EvaluateAsRValue(value, ctx_) ||
      !value.Val.isFloat())
    return nullptr;
  auto type = convertType(call->getType(), call->getSourceRange());
  if (!type) return placeholder();
  std::string text;
  if (SourceLocation at = call->getBeginLoc(); at.isMacroID())
    text = Lexer::getImmediateMacroName(at, sm_, ctx_.getLangOpts()).str();
  if (!ir::isNamedConstant(text))
    text = Lexer::getSourceText(CharSourceRange::getTokenRange(call->getSourceRange()), sm_, ctx_.getLangOpts()).str();
  return ir::namedConstant(text, value.Val.getFloat().convertToDouble(), *type);
}

// A function of the program that Adjoint differentiates from its body: not the library's, not one
// with rules, not one marked nondifferentiable.
bool Converter::isOwnDifferentiated(const FunctionDecl* def) const {
  if (!def->doesThisDeclarationHaveABody() || sm_.isInSystemHeader(def->getLocation()) || def->getBuiltinID() != 0 ||
      markedNondifferentiable(def))
    return false;
  std::string own = def->getNameAsString();
  return !def->getDeclContext()->isFileContext() || (!rules_.count(own) && !aliases_.count(own));
}

ir::ExprPtr Converter::convertCall(const CallExpr* call) {
  const FunctionDecl* fd = call->getDirectCallee();
  if (!fd) return unsupportedExpr(call, "indirect calls are not supported", "call the function by name");
  // __ldg(&x[i]), __ldcs(x + i): the load x[i] (the generated code loads it plainly; the hint is
  // about caching alone).
  if (cuda::isCachedLoad(fd->getName()) && call->getNumArgs() == 1)
    return elementAt(call->getArg(0), ir::number(0, ir::Type::integer()));
  if (isGroupFunction(fd)) return convertGroupFunction(call);
  if (ir::ExprPtr field = getElement(call)) return field;
  if (ir::ExprPtr constant = libraryConstant(call)) return constant;
  // Host code passes pointers into buffers (xs + l * n) to the host functions it calls.
  const FunctionDecl* def = fd->getDefinition();
  bool host = isHostCode(def);
  if (def && !host && isOwnDifferentiated(def))
    if (std::string why = inliningReason(call, def); !why.empty()) return inlineCall(call, def, nullptr, why);
  // Its stores would be invisible to the reverse sweep, which could read what they overwrote.
  if (def && !host && markedNondifferentiable(def))
    if (std::string why = arraysWrittenReason(def); !why.empty())
      return unsupportedExpr(call, "'" + fd->getNameAsString() + "' is marked nondifferentiable, but " + why,
                             "let Adjoint differentiate it (its stores are then undone like the caller's own), or "
                             "have it return the values");
  for (unsigned i = 0; i < std::min(call->getNumArgs(), fd->getNumParams()); ++i) {
    QualType param = fd->getParamDecl(i)->getType();
    if (param->isLValueReferenceType() && param->getPointeeType()->isArithmeticType() &&
        !param->getPointeeType().isConstQualified())
      return unsupportedExpr(call->getArg(i),
                             "passing a variable by reference to '" + fd->getNameAsString() + "' is not supported",
                             "return the value from the function instead");
  }
  std::vector<ir::ExprPtr> args;
  bool own = !sm_.isInSystemHeader(fd->getLocation()) && fd->getBuiltinID() == 0;
  for (const Expr* a : call->arguments())
    args.push_back(host ? convertLaunchArgument(a) : own ? convertCallArgument(a) : convertExpr(a));
  auto type = convertType(call->getType(), call->getSourceRange(), /*allowVoid=*/true);
  if (!type) return placeholder();
  return callOf(fd, std::move(args), *type, call);
}

// The call of `fd` on converted arguments, as the IR calls it: a math function or a function
// with a rule through its rules, the program's own function differentiated in turn (enqueued);
// reported at `call` where `fd` cannot be called so.
ir::ExprPtr Converter::callOf(const FunctionDecl* fd, std::vector<ir::ExprPtr> args, const ir::Type& type,
                              const Expr* call) {
  std::string name = fd->getQualifiedNameAsString();
  if (cuda::isKeptCall(name)) return ir::call(name, args, type);
  if (llvm::StringRef(name).starts_with("atomic"))
    return unsupportedExpr(call,
                           name == "atomicAdd" ? "the value atomicAdd returns is not supported"
                                               : "'" + name + "' cannot be differentiated",
                           name == "atomicAdd" ? "call atomicAdd as a statement of its own"
                                               : "accumulate with atomicAdd, or compute without atomics");
  bool floatingResult = type.isFloating();
  // std::abs, std::min and std::max on floating values are fabs, fmin and fmax.
  if (floatingResult && (name == "std::abs" || name == "abs")) name = "fabs";
  if (floatingResult && name == "std::max") name = "fmax";
  if (floatingResult && name == "std::min") name = "fmin";
  // sin, std::sin and __builtin_sin are one function of the math library.
  std::string base = name;
  for (const char* prefix : {"std::", "__builtin_"})
    if (base.rfind(prefix, 0) == 0) base = base.substr(std::strlen(prefix));
  if (sm_.isInSystemHeader(fd->getLocation()) || fd->getBuiltinID() != 0) {
    // The math library: sin and std::sin use the rules of sin, and so does sinf, which the rules
    // declare another name of sin (sin_aliases).
    if (rules_.count(base)) return ruleCall(fd, cuda::isIntrinsic(base) ? base : "std::" + base, base, args, type);
    if (auto alias = aliases_.find(base); alias != aliases_.end())
      return ruleCall(fd, "std::" + alias->second, alias->second, args, type);
    // Integer helpers of the system headers (CUDA's min and max on ints, say) are constants.
    if (!floatingResult && type.scalar != ir::Scalar::Void) return ir::call(name, args, type);
  } else if (fd->getDeclContext()->isFileContext()) {
    // The user's function with rules, or another name of one (softclipf for softclip).
    std::string own = fd->getNameAsString();
    if (rules_.count(own)) return ruleCall(fd, own, own, args, type);
    if (auto alias = aliases_.find(own); alias != aliases_.end()) return ruleCall(fd, own, alias->second, args, type);
  }
  const FunctionDecl* def = fd->getDefinition();
  if (markedNondifferentiable(fd)) {
    // A helper of Adjoint's own rules (adjoint_digamma): copied where a rule calling it is used.
    if (def && !runtimeHeader(def).empty() && readingRuleHelpers_ && def->doesThisDeclarationHaveABody()) {
      readingRuleHelpers_->push_back(def);
      return ir::call(fd->getNameAsString(), args, type);
    }
    // Device code cannot call a function of another translation unit (without relocatable
    // device code): the generated code gets a copy of a nondifferentiable device function.
    if (def && def->doesThisDeclarationHaveABody() && def->hasAttr<CUDADeviceAttr>())
      enqueue(def);
    else
      declareExternal(fd, fd->getNameAsString());
    return ir::call(fd->getNameAsString(), args, type);
  }
  if (!def || !def->doesThisDeclarationHaveABody())
    return unsupportedExpr(call, "call to '" + name + "', whose body Adjoint cannot see",
                           "define it in this translation unit, give it a derivative rule (namespace adjoint::rules, "
                           "see adjoint/rules.h), or mark it ADJOINT_NONDIFFERENTIABLE");
  // The library's own code (templates instantiated from its headers) is not differentiated: the
  // error belongs at the user's call, not inside the header.
  if (sm_.isInSystemHeader(def->getLocation()))
    return unsupportedExpr(
        call, "'" + name + "' comes from a system header and has no derivative rule",
        "Adjoint differentiates the math library through its rules; write this computation out, or give "
        "the function a rule (namespace adjoint::rules, see adjoint/rules.h)");
  enqueue(def);
  return ir::call(irName(def), args, type);
}

}  // namespace adjoint::frontend::detail

namespace adjoint::frontend {

std::optional<ir::Module> convertToIr(clang::ASTContext& context, const std::vector<std::string>& roots) {
  return detail::Converter(context).run(roots);
}

}  // namespace adjoint::frontend
