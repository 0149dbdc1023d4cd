// Code that touches no value a derivative needs, written as the program wrote it: a random
// engine and its distributions, output, strings (objects of the standard library Adjoint does not
// model). A statement that touches such an object passes through when it computes nothing from a
// floating variable (what it computes is then a constant of the derivative) or, as a statement of
// its own (std::printf("%f", e)), when it writes no variable of the program. One that computes
// from a floating variable stops with a diagnostic; anything else is converted as usual.
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

namespace {

// Classes of the standard library the IR models (containers, pairs, tuples) or that only name an
// operation or a position (std::plus as std::transform's operation, iterators): never passed
// through, converted as the rest of the function.
bool isModeledLibraryClass(const std::string& name) {
  static const char* const kModeled[] = {"std::vector",
                                         "std::array",
                                         "std::pair",
                                         "std::tuple",
                                         "std::initializer_list",
                                         "std::complex",
                                         "std::plus",
                                         "std::minus",
                                         "std::multiplies",
                                         "std::divides",
                                         "std::negate",
                                         "std::less",
                                         "std::greater",
                                         "std::less_equal",
                                         "std::greater_equal",
                                         "std::equal_to",
                                         "std::not_equal_to",
                                         "std::reference_wrapper",
                                         "std::numeric_limits"};
  for (const char* m : kModeled)
    if (name == m) return true;
  return name.size() >= 8 && name.compare(name.size() - 8, 8, "iterator") == 0;
}

// Each sub-expression of s (of a declaration's initializers too: a DeclStmt's children), parents
// first.
template <class F>
void eachExpr(const Stmt* s, F&& visit) {
  if (!s) return;
  if (const auto* e = dyn_cast<Expr>(s)) visit(e);
  for (const Stmt* child : s->children()) eachExpr(child, visit);
}

}  // namespace

bool Converter::isLibraryObject(QualType t) const {
  t = t.getNonReferenceType().getCanonicalType();
  while (t->isPointerType()) t = t->getPointeeType();
  const auto* record = t->getAsCXXRecordDecl();
  return record && record->isInStdNamespace() && !isModeledLibraryClass(record->getQualifiedNameAsString()) &&
         !isGroupType(t);
}

// A variable of the program that the IR has as a variable of its own: a local or parameter of
// scalars or arrays (not a struct kept field by field, a pointer alias or a library object).
bool Converter::isPlainProgramVariable(const VarDecl* vd) const {
  return vd->isLocalVarDeclOrParm() && !isLibraryObject(vd->getType()) && !structLocals_.count(vd) &&
         !pointers_.count(vd) && !vd->getType()->isRecordType();
}

bool Converter::touchesLibraryObject(const Stmt* s) const {
  bool found = false;
  eachExpr(s, [&](const Expr* e) { found |= isa<StringLiteral>(e) || isLibraryObject(e->getType()); });
  if (const auto* ds = dyn_cast<DeclStmt>(s))
    for (const Decl* d : ds->decls())
      if (const auto* vd = dyn_cast<VarDecl>(d)) found |= isLibraryObject(vd->getType());
  return found;
}

// A const local of a constant value (`const double sigma = 0.1;`): no derivative flows from it.
bool Converter::isConstantLocal(const VarDecl* vd) const {
  Expr::EvalResult value;
  return vd->isLocalVarDecl() && vd->getType().isConstQualified() && vd->getInit() &&
         vd->getInit()->EvaluateAsRValue(value, ctx_);
}

// The first local or parameter holding floating values that `s` reads (a derivative could flow
// from it; a constant local is none), else null.
const NamedDecl* Converter::floatingRead(const Stmt* s) const {
  const NamedDecl* found = nullptr;
  eachExpr(s, [&](const Expr* e) {
    const auto* ref = dyn_cast<DeclRefExpr>(e);
    const auto* vd = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    bool floating = vd && vd->isLocalVarDeclOrParm() && !isLibraryObject(vd->getType()) &&
                    carriesFloating(vd->getType()) && !isConstantLocal(vd);
    if (!found && (floating || (ref && isa<BindingDecl>(ref->getDecl())))) found = ref->getDecl();
  });
  return found;
}

// A library object or value computed from a floating value: no derivative flows through library
// code, so it stops with a diagnostic (reported: true) rather than pass through.
bool Converter::refuseFloatingInput(const Stmt* s, const std::string& what) {
  const NamedDecl* input = floatingRead(s);
  if (!input) return false;
  fail(s->getSourceRange(),
       "library code computes " + what + " from '" + input->getNameAsString() +
           "', a floating variable: Adjoint does not differentiate through library code",
       "let library objects compute from constants and integers only (a const double of a constant value is one): "
       "draw z from N(0, 1) and use mu + sigma * z");
  return true;
}

bool Converter::carriesFloating(QualType t) const {
  t = t.getNonReferenceType().getCanonicalType();
  while (t->isPointerType() || t->isArrayType())
    t = t->isPointerType() ? t->getPointeeType() : QualType(t->getArrayElementTypeNoTypeQual(), 0);
  if (t->isFloatingType()) return true;
  const auto* record = t->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition()) return false;
  if (const auto* spec = dyn_cast<ClassTemplateSpecializationDecl>(record))
    for (const TemplateArgument& a : spec->getTemplateArgs().asArray())
      if (a.getKind() == TemplateArgument::Type && carriesFloating(a.getAsType())) return true;
  for (const FieldDecl* f : record->fields())
    if (carriesFloating(f->getType())) return true;
  return false;
}

// Whether `e` may write a local or parameter of the program: assigns it, steps it, takes its
// address, binds it to a non-const reference or pointer, or calls a non-const method on it.
// (Library objects it may change; globals the function cannot read otherwise.)
bool Converter::writesProgramVariable(const Expr* e) const {
  // The local or parameter an lvalue (or a pointer) designates: x of x, x[i], x.f, *(x + 1), v[i].
  auto names = [&](const Expr* x) {
    for (x = x->IgnoreParenImpCasts();; x = x->IgnoreParenImpCasts()) {
      if (const auto* sub = dyn_cast<ArraySubscriptExpr>(x))
        x = sub->getBase();
      else if (const auto* member = dyn_cast<MemberExpr>(x))
        x = member->getBase();
      else if (const auto* u = dyn_cast<UnaryOperator>(x); u && u->getOpcode() == UO_Deref)
        x = u->getSubExpr();
      else if (const auto* b = dyn_cast<BinaryOperator>(x); b && b->isAdditiveOp() && b->getType()->isPointerType())
        x = b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS();
      else if (const auto* op = dyn_cast<CXXOperatorCallExpr>(x); op && op->getOperator() == OO_Subscript)
        x = op->getArg(0);
      else
        break;
    }
    const auto* ref = dyn_cast<DeclRefExpr>(x);
    const auto* vd = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    return (vd && vd->isLocalVarDeclOrParm() && !isLibraryObject(vd->getType())) ||
           (ref && isa<BindingDecl>(ref->getDecl()));
  };
  bool writes = false;
  eachExpr(e, [&](const Expr* x) {
    if (const auto* b = dyn_cast<BinaryOperator>(x); b && b->isAssignmentOp()) writes |= names(b->getLHS());
    if (const auto* u = dyn_cast<UnaryOperator>(x); u && (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf))
      writes |= names(u->getSubExpr());
    if (const auto* member = dyn_cast<CXXMemberCallExpr>(x);
        member && member->getMethodDecl() && !member->getMethodDecl()->isConst())
      writes |= names(member->getImplicitObjectArgument());
    if (const auto* call = dyn_cast<CallExpr>(x)) {
      const FunctionDecl* callee = call->getDirectCallee();
      bool operatorMember = isa<CXXOperatorCallExpr>(call) && isa_and_nonnull<CXXMethodDecl>(callee);
      for (unsigned k = 0; k < call->getNumArgs(); ++k) {
        QualType param;
        if (operatorMember && k == 0) {
          if (!cast<CXXMethodDecl>(callee)->isConst()) writes |= names(call->getArg(0));
          continue;
        }
        unsigned at = operatorMember ? k - 1 : k;
        if (callee && at < callee->getNumParams()) param = callee->getParamDecl(at)->getType();
        bool byReference =
            !param.isNull() && param->isLValueReferenceType() && !param.getNonReferenceType().isConstQualified();
        bool byPointer = !param.isNull() && param->isPointerType() && !param->getPointeeType().isConstQualified();
        if (byReference || byPointer || (!callee && !isa<CXXOperatorCallExpr>(call))) writes |= names(call->getArg(k));
      }
    }
    if (const auto* lambda = dyn_cast<LambdaExpr>(x)) writes |= lambda->capture_size() > 0;
  });
  return writes;
}

// `e` (or a declaration) as its source spells it, each variable of the program in it an operand.
std::optional<ir::ExprPtr> Converter::verbatim(SourceRange range, const Stmt* within, const ir::Type& type) {
  if (range.getBegin().isMacroID() || range.getEnd().isMacroID()) return std::nullopt;
  CharSourceRange chars = CharSourceRange::getTokenRange(range);
  std::string text = Lexer::getSourceText(chars, sm_, ctx_.getLangOpts()).str();
  unsigned start = sm_.getFileOffset(range.getBegin());
  std::vector<const DeclRefExpr*> refs;
  bool followed = true;
  eachExpr(within, [&](const Expr* e) {
    const auto* ref = dyn_cast<DeclRefExpr>(e);
    const auto* vd = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    if (!vd || !vd->isLocalVarDeclOrParm() || isLibraryObject(vd->getType())) return;
    followed &= isPlainProgramVariable(vd) && !ref->getLocation().isMacroID();
    refs.push_back(ref);
  });
  if (!followed || text.empty()) return std::nullopt;
  std::sort(refs.begin(), refs.end(), [&](const DeclRefExpr* a, const DeclRefExpr* b) {
    return sm_.getFileOffset(a->getLocation()) < sm_.getFileOffset(b->getLocation());
  });
  std::vector<std::string> pieces;
  std::vector<ir::ExprPtr> variables;
  size_t done = 0;
  for (const DeclRefExpr* ref : refs) {
    size_t at = sm_.getFileOffset(ref->getLocation()) - start;
    size_t length = ref->getDecl()->getName().size();
    if (at < done || at + length > text.size()) return std::nullopt;
    pieces.push_back(text.substr(done, at - done));
    variables.push_back(convertDeclRef(ref));
    done = at + length;
  }
  pieces.push_back(text.substr(done));
  return ir::verbatim(pieces, std::move(variables), type);
}

bool Converter::passThrough(const Stmt* s, ir::StmtList& out) {
  if (currentIsDevice_ || !touchesLibraryObject(s)) return false;
  ir::SourceLoc at = loc(s->getBeginLoc());
  const auto* ds = dyn_cast<DeclStmt>(s);
  const auto* vd = ds && ds->isSingleDecl() ? dyn_cast<VarDecl>(ds->getSingleDecl()) : nullptr;
  if (ds && !vd) return false;
  if (vd && isLibraryObject(vd->getType())) {  // std::mt19937_64 engine(seed);
    if (refuseFloatingInput(s, "'" + vd->getNameAsString() + "'")) return true;
    if (vd->getInit() && writesProgramVariable(vd->getInit())) return false;
    auto whole = verbatim(vd->getSourceRange(), s, ir::Type::of(ir::Scalar::Void));
    if (whole) out.push_back(ir::at(ir::eval(*whole), at));
    return whole.has_value();
  }
  if (vd) {  // double jitter = noise(engine);  a constant of the derivative
    const Expr* init = vd->getInit();
    if (!init || !vd->getType()->isArithmeticType()) return false;
    if (refuseFloatingInput(init, "the value of '" + vd->getNameAsString() + "'")) return true;
    if (writesProgramVariable(init)) return false;
    auto type = convertType(vd->getType(), vd->getSourceRange());
    auto value = type ? verbatim(init->getSourceRange(), init, *type) : std::nullopt;
    if (value) out.push_back(ir::at(ir::decl(localName(vd), *type, *value), at));
    return value.has_value();
  }
  const auto* e = cast<Expr>(s)->IgnoreImplicit();
  if (const auto* b = dyn_cast<BinaryOperator>(e->IgnoreParens()); b && b->getOpcode() == BO_Assign) {
    const auto* target = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParens());  // jitter = noise(engine);
    const auto* variable = target ? dyn_cast<VarDecl>(target->getDecl()) : nullptr;
    if (!variable || !isPlainProgramVariable(variable) || !variable->getType()->isArithmeticType()) return false;
    if (refuseFloatingInput(b->getRHS(), "the value assigned to '" + variable->getNameAsString() + "'")) return true;
    if (writesProgramVariable(b->getRHS())) return false;
    ir::ExprPtr assigned = convertDeclRef(target);
    auto value = verbatim(b->getRHS()->getSourceRange(), b->getRHS(), assigned->type);
    if (value) out.push_back(ir::at(ir::assign(assigned, ir::Op::Assign, *value), at));
    return value.has_value();
  }
  if (writesProgramVariable(e)) return false;  // std::printf("%f\n", e);  std::cout << e;
  auto whole = verbatim(e->getSourceRange(), e, ir::Type::of(ir::Scalar::Void));
  if (whole) out.push_back(ir::at(ir::eval(*whole), at));
  return whole.has_value();
}

}  // namespace adjoint::frontend::detail
