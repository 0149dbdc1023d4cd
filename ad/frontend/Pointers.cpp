// Pointer locals and pointer arithmetic, as integer offsets into the arrays pointed into.
#include <clang/AST/ExprCXX.h>

#include <algorithm>

#include "ad/frontend/Converter.h"
#include "ad/frontend/Cuda.h"

namespace adjoint::frontend::detail {

namespace {

const ir::Type kOffset = ir::Type::integer("long");

// The pointer parameter that `s` assigns, advances or steps back, if any.
const ParmVarDecl* advancedParam(const Stmt* s) {
  const Expr* target = nullptr;
  if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) target = b->getLHS();
  if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp()) target = u->getSubExpr();
  const auto* ref = target ? dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts()) : nullptr;
  const auto* p = ref ? dyn_cast<ParmVarDecl>(ref->getDecl()) : nullptr;
  return p && p->getType()->isPointerType() ? p : nullptr;
}

const char* const kPointerHint =
    "index a pointer parameter or a local array (p[i], *(p + i)), a pointer local that points into one "
    "(const double* row = A + i * n; row[j]), or a view of one as vectors (reinterpret_cast<const float4*>(x)[i])";

// How many elements of type `element` one `to` spans: 1 for `element` itself, n for a struct of n
// fields of that type without padding (float4 over float, __nv_bfloat162 over __nv_bfloat16), 0
// for anything else.
int span(QualType to, QualType element, const ASTContext& ctx) {
  to = to.getCanonicalType().getUnqualifiedType();
  element = element.getCanonicalType().getUnqualifiedType();
  if (to == element) return 1;
  const auto* record = to->getAsRecordDecl();
  if (!record || !record->getDefinition() || (element->isRecordType() && storageFormat(element).empty())) return 0;
  int n = 0;
  for (const FieldDecl* field : record->getDefinition()->fields()) {
    if (field->getType().getCanonicalType().getUnqualifiedType() != element) return 0;
    ++n;
  }
  return n > 0 && ctx.getTypeSize(to) == n * ctx.getTypeSize(element) ? n : 0;
}

}  // namespace

std::string Converter::freshName(const std::string& base) { return namesInFunction_.fresh(base); }

// Collects the names the function declares (offset locals get names of their own), and gives
// each pointer parameter that the body advances its offset local, declared in `prologue`.
void Converter::beginFunction(const FunctionDecl* fd, ir::StmtList& prologue) {
  pointers_.clear();
  // (What inlined calls bound, keyed by their callees' declarations, is gone: a callee converted
  // as a function of its own has parameters, not copies.)
  elementAliases_.clear();
  structLocals_.clear();
  renamed_.clear();
  tables_.clear();
  tableDecls_.clear();
  namesInFunction_ = ir::NameSet();
  findRoundedPairs(fd);
  findWrittenPacks(fd);
  for (const ParmVarDecl* p : fd->parameters()) namesInFunction_.insert(p->getNameAsString());
  std::vector<const ParmVarDecl*> advanced;
  visitAll(fd->getBody(), [&](const Stmt* s) {
    if (const auto* ds = dyn_cast<DeclStmt>(s))
      for (const Decl* d : ds->decls())
        if (const auto* nd = dyn_cast<NamedDecl>(d)) namesInFunction_.insert(nd->getNameAsString());
    if (const ParmVarDecl* p = advancedParam(s); p && std::find(advanced.begin(), advanced.end(), p) == advanced.end())
      advanced.push_back(p);
  });
  for (const ParmVarDecl* p : advanced) {
    auto type = convertType(p->getType(), p->getSourceRange());
    if (!type) continue;
    std::string offset = freshName(p->getNameAsString() + "_offset");
    pointers_[p] = {ir::var(p->getNameAsString(), *type), offset};
    prologue.push_back(ir::at(ir::decl(offset, kOffset, ir::number(0, kOffset)), loc(fd->getBody()->getBeginLoc())));
  }
}

// `p++`, `++p`, `p--`, `--p` where the pointer is read (`*p++ = v`, `s += *++p`): the step goes
// before the statement, and the pointer is where it was before the step (p++) or after it (++p).
std::optional<Converter::PointerValue> Converter::steppedPointer(const UnaryOperator* u) {
  const auto* vd = cast<VarDecl>(cast<DeclRefExpr>(u->getSubExpr()->IgnoreParenImpCasts())->getDecl());
  const PointerAlias& alias = pointers_.at(vd);
  ir::ExprPtr offset = ir::var(alias.offset, kOffset);
  if (!prelude_) {
    needsNoStatements(u, "moving a pointer");
    return PointerValue{alias.base, offset, alias.width};
  }
  ir::SourceLoc at = loc(u->getBeginLoc());
  if (u->isPostfix()) {
    std::string before = freshName(alias.offset + "_before");
    prelude_->push_back(ir::at(ir::decl(before, kOffset, offset), at));
    offset = ir::var(before, kOffset);
  }
  ir::Op op = u->isIncrementOp() ? ir::Op::Add : ir::Op::Sub;
  prelude_->push_back(ir::at(ir::assign(ir::var(alias.offset, kOffset), op, ir::number(alias.width, kOffset)), at));
  return PointerValue{alias.base, offset, alias.width};
}

bool Converter::isPointerAlias(const Expr* e) const {
  const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto* vd = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  return vd && pointers_.count(vd);
}

// The elements of the base one step of a pointer of type `t` moves over (or of the pointer an
// array of type `t` decays to): the extent of a row for T (*)[3] and T [2][3], else 1.
int Converter::rowWidth(QualType t) const {
  QualType stepped = t->isPointerType() ? t->getPointeeType()
                     : t->isArrayType() ? ctx_.getAsArrayType(t)->getElementType()
                                        : QualType();
  const auto* row = stepped.isNull() ? nullptr : ctx_.getAsConstantArrayType(stepped);
  return row ? static_cast<int>(ctx_.getConstantArrayElementCount(row)) : 1;
}

// Where a pointer expression points: an array and an offset into it. Nothing for pointers Adjoint
// cannot follow (pointers returned by calls, chosen by ?:, pointers to pointers).
std::optional<Converter::PointerValue> Converter::pointerValue(const Expr* e) {
  e = e->IgnoreParenImpCasts();
  if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
    const auto* vd = dyn_cast<VarDecl>(ref->getDecl());
    if (vd && cuda::isShared(vd) && vd->hasExternalStorage()) return PointerValue{convertDeclRef(ref), nullptr};
    if (vd && !vd->isLocalVarDeclOrParm()) {
      ir::ExprPtr table = constantTable(vd);
      return table ? std::optional<PointerValue>(PointerValue{table, nullptr}) : std::nullopt;
    }
    if (!vd) return std::nullopt;
    if (auto it = pointers_.find(vd); it != pointers_.end())
      return PointerValue{it->second.base, ir::var(it->second.offset, kOffset), it->second.width};
    if (vd->getType()->isPointerType() || vd->getType()->isConstantArrayType())
      return PointerValue{convertDeclRef(ref), nullptr, rowWidth(vd->getType())};
    return std::nullopt;
  }
  if (const auto* cast = dyn_cast<ExplicitCastExpr>(e)) return castPointer(cast);
  if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp() && isPointerAlias(u->getSubExpr()))
    return steppedPointer(u);
  auto advance = [&](std::optional<PointerValue> p, ir::ExprPtr k, bool back) -> std::optional<PointerValue> {
    if (p && p->width > 1) k = ir::mul(ir::number(p->width, ir::Type::integer()), k);
    if (p)
      p->offset = back ? (p->offset ? ir::sub(p->offset, k) : ir::neg(k)) : (p->offset ? ir::add(p->offset, k) : k);
    return p;
  };
  if (const auto* b = dyn_cast<BinaryOperator>(e); b && (b->getOpcode() == BO_Add || b->getOpcode() == BO_Sub)) {
    bool pointerFirst = b->getLHS()->getType()->isPointerType();
    const Expr* pointer = pointerFirst ? b->getLHS() : b->getRHS();
    const Expr* count = pointerFirst ? b->getRHS() : b->getLHS();
    if (!count->getType()->isIntegerType() || (b->getOpcode() == BO_Sub && !pointerFirst)) return std::nullopt;
    return advance(pointerValue(pointer), convertExpr(count), b->getOpcode() == BO_Sub);
  }
  // m[i] of `double m[N][M]` (a local, one array of N * M elements) or of `double (*m)[M]` (a
  // parameter, indexed the same way): the start of row i, i * M; *m is row 0.
  if (const auto* row = dyn_cast<ArraySubscriptExpr>(e); row && row->getType()->isArrayType()) {
    std::optional<PointerValue> p = pointerValue(row->getBase());
    if (!p) return p;
    ir::ExprPtr start = ir::mul(convertExpr(row->getIdx()), ir::number(p->width, kOffset));  // (as people write it)
    p->offset = p->offset ? ir::add(p->offset, start) : start;
    p->width = rowWidth(row->getType());
    return p;
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_Deref && u->getType()->isArrayType()) {
    std::optional<PointerValue> p = pointerValue(u->getSubExpr());
    if (p) p->width = rowWidth(u->getType());
    return p;
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf) {
    const Expr* target = u->getSubExpr()->IgnoreParens();
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(target))
      return advance(pointerValue(sub->getBase()), convertExpr(sub->getIdx()), false);
    if (const auto* deref = dyn_cast<UnaryOperator>(target); deref && deref->getOpcode() == UO_Deref)
      return pointerValue(deref->getSubExpr());
  }
  return std::nullopt;
}

// `constexpr double table[3] = {...};` at namespace scope, read by the function: a local array of
// the same values (it is never written, so it has no adjoint), declared at the function's start.
ir::ExprPtr Converter::constantTable(const VarDecl* vd) {
  if (auto it = tables_.find(vd); it != tables_.end()) return it->second;
  const auto* array = ctx_.getAsConstantArrayType(vd->getType());
  const APValue* value = vd->getType().isConstQualified() && array ? vd->evaluateValue() : nullptr;
  if (!value || !value->isArray()) return nullptr;
  auto type = convertType(vd->getType(), vd->getSourceRange());
  if (!type) return nullptr;
  auto s = ir::decl(freshName(vd->getNameAsString()), *type, nullptr);
  for (unsigned k = 0; k < value->getArraySize(); ++k) {
    const APValue& element =
        k < value->getArrayInitializedElts() ? value->getArrayInitializedElt(k) : value->getArrayFiller();
    if (element.isFloat())
      s->args.push_back(ir::number(element.getFloat().convertToDouble(), type->element()));
    else if (element.isInt())
      s->args.push_back(ir::number(static_cast<double>(element.getInt().getSExtValue()), type->element()));
    else
      return nullptr;
  }
  s->comment = "the constant table " + vd->getNameAsString();
  tableDecls_.push_back(s);
  return tables_[vd] = ir::var(s->name, *type);
}

// `(T*)p`, `reinterpret_cast<const float4*>(x + k)`: where p points, viewed as T, for T the
// element type of the array pointed into or a struct of fields of that type; nothing otherwise.
std::optional<Converter::PointerValue> Converter::castPointer(const ExplicitCastExpr* cast) {
  const Expr* from = cast->getSubExpr();
  if (!cast->getType()->isPointerType() || !from->getType()->isPointerType() ||
      (cast->getCastKind() != CK_BitCast && cast->getCastKind() != CK_NoOp))
    return std::nullopt;
  std::optional<PointerValue> p = pointerValue(from);
  if (!p) return std::nullopt;
  QualType element = from->getType()->getPointeeType();
  if (element->isArrayType())
    element = ctx_.getBaseElementType(element);  // (const double*)m of double (*m)[3]: m's elements
  else if (p->width > 1)
    element = (*element->getAsRecordDecl()->field_begin())->getType();
  p->width = span(cast->getType()->getPointeeType(), element, ctx_);
  return p->width > 0 ? p : std::nullopt;
}

// Why a pointer cannot be followed: a cast to another element type, or anything else.
void Converter::reportUnfollowed(const Expr* pointer) {
  if (isa<ExplicitCastExpr>(pointer->IgnoreParenImpCasts()))
    report_.error(pointer->getSourceRange(), "Adjoint cannot follow this cast of a pointer",
                  "cast a pointer into an array only to its element type or to a struct of fields of that type "
                  "without padding (const float4* over const float*, const __nv_bfloat162* over const __nv_bfloat16*)");
  else
    report_.error(pointer->getSourceRange(), "Adjoint cannot tell which array this pointer points into", kPointerHint);
}

ir::ExprPtr Converter::elementAt(const Expr* pointer, ir::ExprPtr index) {
  std::optional<PointerValue> p = pointerValue(pointer);
  if (!p) {
    reportUnfollowed(pointer);
    return placeholder();
  }
  if (p->width > 1) {
    report_.error(pointer->getSourceRange(), "an element of a view as vectors is used by its fields only",
                  "read its fields (x4[i].x), copy it into a local (float4 v = x4[i];) or store a whole one");
    return placeholder();
  }
  return ir::index(p->base, p->offset ? ir::add(p->offset, index) : index);
}

// `x4[i].y` for a view x4 of x as float4: x[4 * i + 1] (a struct array parameter's element:
// pts[i].y as it is).
ir::ExprPtr Converter::elementField(const Expr* pointer, ir::ExprPtr index, const std::string& field) {
  std::optional<PointerValue> p = pointerValue(pointer);
  if (!p || p->width == 1) return ir::member(elementAt(pointer, index), field);
  unsigned k = fieldNamed(pointer->getType()->getPointeeType()->getAsRecordDecl(), field)->getFieldIndex();
  ir::ExprPtr at = ir::mul(ir::number(p->width, ir::Type::integer()), index);
  if (p->offset) at = ir::add(p->offset, at);
  return ir::index(p->base, k > 0 ? ir::add(at, ir::number(k, ir::Type::integer())) : at);
}

// `const double* row = A + i * n;` declares row's offset: `long row_offset = i * n;`.
void Converter::declarePointer(const VarDecl* vd, ir::StmtList& out) {
  std::string name = vd->getNameAsString();
  std::optional<PointerValue> p = vd->getInit() ? pointerValue(vd->getInit()) : std::nullopt;
  if (!p && vd->getInit() && isa<ExplicitCastExpr>(vd->getInit()->IgnoreParenImpCasts())) {
    reportUnfollowed(vd->getInit());
    return;
  }
  if (!p) {
    fail(vd->getInit() ? vd->getInit()->getSourceRange() : vd->getSourceRange(),
         "pointer '" + name + "' must be initialized to point into a pointer parameter or a local array", kPointerHint);
    return;
  }
  std::string offset = freshName(name + "_offset");
  pointers_[vd] = {p->base, offset, p->width};
  out.push_back(
      ir::at(ir::decl(offset, kOffset, p->offset ? p->offset : ir::number(0, kOffset)), loc(vd->getBeginLoc())));
}

// `row = A + k`, `row += k`, `++row`: the offset moves; the array pointed into must stay the same.
ir::StmtPtr Converter::assignPointer(const Expr* whole, const Expr* target, ir::Op op, const Expr* value) {
  const auto* vd = cast<VarDecl>(cast<DeclRefExpr>(target->IgnoreParenImpCasts())->getDecl());
  const PointerAlias& alias = pointers_.at(vd);
  ir::ExprPtr offset = ir::var(alias.offset, kOffset);
  ir::SourceLoc at = loc(whole->getBeginLoc());
  if (op == ir::Op::Add || op == ir::Op::Sub) {
    ir::ExprPtr step = value ? convertExpr(value) : ir::number(1, ir::Type::integer());
    if (alias.width > 1) step = ir::mul(ir::number(alias.width, ir::Type::integer()), step);
    return ir::at(ir::assign(offset, op, step), at);
  }
  std::optional<PointerValue> p = op == ir::Op::Assign ? pointerValue(value) : std::nullopt;
  if (!p || ir::rootName(*p->base) != ir::rootName(*alias.base) || p->width != alias.width) {
    fail(whole->getSourceRange(),
         "pointer '" + vd->getNameAsString() + "' must keep pointing into '" + ir::rootName(*alias.base) + "'",
         "move a pointer with =, += and -= within the array it was initialized to point into; use another pointer for "
         "another array");
    return nullptr;
  }
  return ir::at(ir::assign(offset, ir::Op::Assign, p->offset ? p->offset : ir::number(0, kOffset)), at);
}

// `p != nullptr`, `p == NULL`, `if (p)`: whether an optional buffer, a pointer parameter, was given.
ir::ExprPtr Converter::nullTest(const Expr* whole, const Expr* pointer, bool given) {
  const auto* ref = dyn_cast<DeclRefExpr>(pointer->IgnoreParenImpCasts());
  if (!ref || !isa<ParmVarDecl>(ref->getDecl()))
    return unsupportedExpr(whole, "only a pointer parameter can be tested against null",
                           "test the buffer parameter itself (bias != nullptr)");
  ir::ExprPtr p = convertExpr(pointer);
  return ir::binary(given ? ir::Op::Ne : ir::Op::Eq, p, ir::var("nullptr", p->type));
}

// `p != end` for two pointers into the same array compares their offsets.
ir::ExprPtr Converter::comparePointers(const BinaryOperator* b) {
  for (auto [tested, other] : {std::pair{b->getLHS(), b->getRHS()}, std::pair{b->getRHS(), b->getLHS()}})
    if (other->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNotNull) &&
        (b->getOpcode() == BO_EQ || b->getOpcode() == BO_NE))
      return nullTest(b, tested, b->getOpcode() == BO_NE);
  std::optional<PointerValue> l = pointerValue(b->getLHS()), r = pointerValue(b->getRHS());
  if (!l || !r || ir::rootName(*l->base) != ir::rootName(*r->base))
    return unsupportedExpr(b, "only pointers into the same array can be compared", kPointerHint);
  ir::ExprPtr zero = ir::number(0, kOffset);
  return ir::binary(*irOperator(b->getOpcode()), l->offset ? l->offset : zero, r->offset ? r->offset : zero);
}

}  // namespace adjoint::frontend::detail
