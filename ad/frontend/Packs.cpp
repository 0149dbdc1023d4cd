// Packs: structs holding one array of values and nothing else, the 128-bit vectors of tuned
// training kernels (llm.c's Packed128<T>: `T payload[16 / sizeof(T)]`, indexed through its
// operator[]). A function of the program that makes a pack from one pointer, its body a single
// return (load128(x + i), load128cs: a load of 128 bits), is the pack's elements copied from where
// the pointer points, and one that takes a pointer and a pack and returns nothing, its body a
// single statement (store128(y + i, p), store128cs), is the elements copied there.
// A pack loaded from a buffer the function never writes, and never written itself, is a view of
// the buffer where it was loaded (`long in_offset = c;` and in[k] is x[in_offset + k]), as a
// pointer local is: the reverse reads the buffer again rather than keeping the pack. Any other
// pack local is a local array of its elements. Packs of 16-bit values, other uses of a pack whole
// (a pack passed to or returned by another function, made by its static members, copied through
// get_bits()) are not supported.
#include <clang/AST/ExprCXX.h>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

namespace {

// The array field of a pack: the only field of a struct of the program (std::array is a
// container) without bases, an array of float, double or 16-bit values; null for any other type.
const FieldDecl* payloadOf(QualType t) {
  const auto* record = t->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition() || record->getNumBases() > 0 || record->isInStdNamespace()) return nullptr;
  const FieldDecl* only = nullptr;
  for (const FieldDecl* f : record->getDefinition()->fields()) {
    if (only) return nullptr;
    only = f;
  }
  const auto* array = only ? dyn_cast<ConstantArrayType>(only->getType().getCanonicalType()) : nullptr;
  if (!array) return nullptr;
  QualType element = array->getElementType();
  return element->isRealFloatingType() || !storageFormat(element).empty() ? only : nullptr;
}

const FunctionDecl* directCallee(const Expr* e) {
  const auto* call = dyn_cast<CallExpr>(e->IgnoreImplicit());
  return call ? call->getDirectCallee() : nullptr;
}

// A body of one statement (or one statement in braces).
bool singleStatement(const FunctionDecl* fd, bool isReturn) {
  const auto* body = dyn_cast_or_null<CompoundStmt>(fd->getBody());
  return body && body->size() == 1 && isa<ReturnStmt>(body->body_front()) == isReturn;
}

// load128(x + i): a function of the program making a pack from where one pointer points.
bool isPackLoad(const FunctionDecl* fd) {
  const FunctionDecl* def = fd ? fd->getDefinition() : nullptr;
  return def && payloadOf(def->getReturnType()) && def->getNumParams() == 1 &&
         def->getParamDecl(0)->getType()->isPointerType() && singleStatement(def, true);
}

const ir::Type kOffset = ir::Type::integer("long");

const char* kPackHint =
    "load a pack from a buffer (x128 p = load128(x + i)), read and assign its elements (p[k]) and store it into a "
    "buffer (store128(y + i, p))";

}  // namespace

bool isPack(QualType t) { return payloadOf(t.getCanonicalType()) != nullptr; }

// A pack used whole other than as a local loaded, copied, assigned and stored (Types.cpp).
void Converter::reportWholePack(SourceRange where) {
  fail(where, "a pack is used whole here, which is not supported", kPackHint);
}

// A pack as a value: an array of its elements.
std::optional<ir::Type> Converter::convertPack(QualType t, SourceRange where) {
  const FieldDecl* payload = payloadOf(t.getCanonicalType());
  const auto* array = cast<ConstantArrayType>(payload->getType().getCanonicalType());
  QualType element = array->getElementType();
  if (!storageFormat(element).empty()) {
    // (The CPU execution keeps a 16-bit value in a float: its packs would hold half as many, and
    // the forward it runs for the checks would not be the GPU's.)
    fail(where, "a pack of 16-bit values is not supported yet",
         "view the buffer two elements at a time (reinterpret_cast<const __nv_bfloat162*>(x)[i]), or one element at "
         "a time");
    return std::nullopt;
  }
  auto type = convertType(element, where);
  if (type) type->arraySize = static_cast<int>(array->getSize().getZExtValue());
  return type;
}

// p[k] through the pack's operator[], or p.payload[k].
bool Converter::isPackElement(const Expr* e) const {
  e = e->IgnoreParenImpCasts();
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(e))
    return op->getOperator() == OO_Subscript && isPack(op->getArg(0)->getType());
  const auto* sub = dyn_cast<ArraySubscriptExpr>(e);
  const auto* field = sub ? dyn_cast<MemberExpr>(sub->getBase()->IgnoreParenImpCasts()) : nullptr;
  return field && isPack(field->getBase()->getType());
}

ir::ExprPtr Converter::convertPackElement(const Expr* e) {
  e = e->IgnoreParenImpCasts();
  const Expr *pack = nullptr, *index = nullptr;
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(e)) {
    pack = op->getArg(0), index = op->getArg(1);
  } else {
    const auto* sub = cast<ArraySubscriptExpr>(e);
    pack = cast<MemberExpr>(sub->getBase()->IgnoreParenImpCasts())->getBase(), index = sub->getIdx();
  }
  const VarDecl* vd = localPack(pack);
  if (!vd) return unsupportedExpr(e, "only the elements of a local pack can be read and assigned here", kPackHint);
  return packElement(vd, convertExpr(index));
}

// The local pack `e` names, or null.
const VarDecl* Converter::localPack(const Expr* e) const {
  const auto* ref = dyn_cast<DeclRefExpr>(structValue(e)->IgnoreParenImpCasts());
  const auto* vd = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  return vd && vd->isLocalVarDecl() && isPack(vd->getType()) ? vd : nullptr;
}

// Element `slot` of the local pack `vd`: of the buffer it views, or of its array.
ir::ExprPtr Converter::packElement(const VarDecl* vd, ir::ExprPtr slot) {
  if (auto view = pointers_.find(vd); view != pointers_.end())
    return ir::index(view->second.base, ir::add(ir::var(view->second.offset, kOffset), slot));
  auto type = convertPack(vd->getType(), vd->getSourceRange());
  return type ? ir::index(ir::var(localName(vd), *type), slot) : placeholder();
}

// The pack locals the function writes: an element assigned (p[k] = v, p[k] += v, ++p[k]) or the
// whole pack assigned (p = q).
void Converter::findWrittenPacks(const FunctionDecl* fd) {
  writtenPacks_.clear();
  auto mark = [&](const Expr* target) {
    target = target->IgnoreParenImpCasts();
    if (isPackElement(target)) {
      const auto* op = dyn_cast<CXXOperatorCallExpr>(target);
      target = op ? op->getArg(0)
                  : cast<MemberExpr>(cast<ArraySubscriptExpr>(target)->getBase()->IgnoreParenImpCasts())->getBase();
    }
    if (const VarDecl* vd = localPack(target)) writtenPacks_.insert(vd);
  };
  visitAll(fd->getBody(), [&](const Stmt* s) {
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) mark(b->getLHS());
    if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp()) mark(u->getSubExpr());
    if (const auto* op = dyn_cast<CXXOperatorCallExpr>(s); op && op->isAssignmentOp()) mark(op->getArg(0));
  });
}

// x128 p = load128(x + i);  x128 q = p;  x128 r;  -> a view of x at i where p is never written
// and x never written by the function; else a local array, its elements copied from where the
// load points or from the pack copied (a pack declared alone holds zeros: its elements are
// indeterminate, zero is one of their values).
void Converter::declarePack(const VarDecl* vd, ir::StmtList& out) {
  auto type = convertPack(vd->getType(), vd->getSourceRange());
  if (!type) return;
  ir::SourceLoc at = loc(vd->getBeginLoc());
  const Expr* init = vd->getInit() ? structValue(vd->getInit()) : nullptr;
  bool declaredAlone = !init || (isa<CXXConstructExpr>(init) && cast<CXXConstructExpr>(init)->getNumArgs() == 0);
  bool loads = init && isPackLoad(directCallee(init));
  const Expr* address = loads ? cast<CallExpr>(init->IgnoreImplicit())->getArg(0) : nullptr;
  if (address && !writtenPacks_.count(vd))
    if (std::optional<PointerValue> p = pointerValue(address); p && p->width == 1 && readOnlyBuffer(*p->base)) {
      std::string offset = freshName(vd->getNameAsString() + "_offset");
      pointers_[vd] = {p->base, offset, 1};
      out.push_back(ir::at(ir::decl(offset, kOffset, p->offset ? p->offset : ir::number(0, kOffset)), at));
      return;
    }
  out.push_back(ir::at(ir::decl(localName(vd), *type, nullptr), at));
  if (!declaredAlone) copyIntoPack(vd, init, at, out);
}

// The elements of `value`, a local pack or a load, assigned to those of the pack local `vd`.
void Converter::copyIntoPack(const VarDecl* vd, const Expr* value, ir::SourceLoc at, ir::StmtList& out) {
  const VarDecl* copied = localPack(value);
  const FunctionDecl* load = directCallee(structValue(value));
  if (!copied && !isPackLoad(load)) {
    fail(value->getSourceRange(), "this value of a pack is not supported", kPackHint);
    return;
  }
  auto type = convertPack(vd->getType(), vd->getSourceRange());
  for (int k = 0; type && k < type->arraySize; ++k) {
    ir::ExprPtr slot = ir::number(k, ir::Type::integer());
    ir::ExprPtr element = copied ? packElement(copied, slot)
                                 : elementAt(cast<CallExpr>(structValue(value)->IgnoreImplicit())->getArg(0), slot);
    out.push_back(ir::at(ir::assign(packElement(vd, slot), ir::Op::Assign, element), at));
  }
}

// p = q; p = load128(x + i);  for a pack local p.
bool Converter::isPackAssignment(const Expr* e) const {
  const auto* op = dyn_cast<CXXOperatorCallExpr>(e->IgnoreImplicit());
  return op && op->getOperator() == OO_Equal && isPack(op->getArg(0)->getType());
}

void Converter::convertPackAssignment(const Expr* e, ir::StmtList& out) {
  const auto* op = cast<CXXOperatorCallExpr>(e->IgnoreImplicit());
  const VarDecl* target = localPack(op->getArg(0));
  if (!target) {
    fail(op->getArg(0)->getSourceRange(), "only a local pack can be assigned here", kPackHint);
    return;
  }
  copyIntoPack(target, op->getArg(1), loc(e->getBeginLoc()), out);
}

// Whether `base` is a pointer parameter to const elements: no statement of the function writes
// it, so a view of it reads what a copy would hold.
bool Converter::readOnlyBuffer(const ir::Expr& base) const {
  return base.kind == ir::ExprKind::Var && base.type.pointer && base.type.constPointee;
}

// store128(y + i, p): a function of the program taking a pointer and a pack, returning nothing,
// its body one statement.
bool Converter::isPackStore(const CallExpr* call) const {
  const FunctionDecl* fd = call ? call->getDirectCallee() : nullptr;
  const FunctionDecl* def = fd ? fd->getDefinition() : nullptr;
  return def && def->getReturnType()->isVoidType() && def->getNumParams() == 2 &&
         def->getParamDecl(0)->getType()->isPointerType() &&
         isPack(def->getParamDecl(1)->getType().getNonReferenceType()) && singleStatement(def, false);
}

// The pack's elements, each stored where the pointer points.
void Converter::lowerPackStore(const CallExpr* call, ir::StmtList& out) {
  const VarDecl* vd = localPack(call->getArg(1));
  if (!vd) {
    fail(call->getArg(1)->getSourceRange(), "only a local pack can be stored here", kPackHint);
    return;
  }
  auto type = convertPack(vd->getType(), vd->getSourceRange());
  for (int k = 0; type && k < type->arraySize; ++k) {
    ir::ExprPtr slot = ir::number(k, ir::Type::integer());
    out.push_back(ir::at(ir::assign(elementAt(call->getArg(0), slot), ir::Op::Assign, packElement(vd, slot)),
                         loc(call->getBeginLoc())));
  }
}

}  // namespace adjoint::frontend::detail
