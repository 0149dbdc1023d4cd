// Local variables of struct type, as scalars: `Vec3 d = {a.x - b.x, ...};` is one local per field
// (d_x, d_y, d_z), and `d.x` reads or assigns d_x, so that every field is differentiated as the
// scalar it is (see Converter.h). Whole structs move field by field: `float4 v = x4[i];`,
// `y4[i] = make_float4(a, b, c, d);`, `r = v;` are an assignment per field.
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

#include "ad/frontend/Converter.h"
#include "ad/frontend/Cuda.h"
#include "ad/ir/Diagnostic.h"

namespace adjoint::frontend::detail {

const Expr* structValue(const Expr* e) {
  for (e = e->IgnoreImplicit();;) {
    if (const auto* f = dyn_cast<CXXFunctionalCastExpr>(e); f && f->getCastKind() == CK_NoOp) {
      e = f->getSubExpr()->IgnoreImplicit();  // Vec2{a, b}
      continue;
    }
    const auto* c = dyn_cast<CXXConstructExpr>(e);
    if (!c || !c->getConstructor()->isCopyOrMoveConstructor() || c->getNumArgs() != 1) return e;
    e = c->getArg(0)->IgnoreImplicit();
  }
}

namespace {

// A struct an initializer copies (`Vec3 e = d;`, `Vec3 e(p);`, `float4 v = x4[i];`) or makes
// (`make_float4(a, b, c, d)`), or null.
const Expr* copiedStruct(const Expr* init) {
  if (!init) return nullptr;
  const Expr* value = structValue(init);
  if (const auto* c = dyn_cast<CXXConstructExpr>(value); c && !c->getConstructor()->isCopyOrMoveConstructor())
    return nullptr;
  return isa<InitListExpr>(value) ? nullptr : value;
}

// `make_float4(a, b, c, d)`: CUDA's function making a vector of its fields, one argument each.
const CallExpr* makeCall(const Expr* e) {
  const auto* call = dyn_cast<CallExpr>(e);
  const FunctionDecl* fd = call ? call->getDirectCallee() : nullptr;
  const RecordDecl* record = e->getType()->getAsRecordDecl();
  if (!fd || !record || fd->getName() != "make_" + record->getName().str()) return nullptr;
  return std::distance(record->field_begin(), record->field_end()) == call->getNumArgs() ? call : nullptr;
}

}  // namespace

const FieldDecl* fieldNamed(const RecordDecl* record, const std::string& field) {
  for (const FieldDecl* f : record->getDefinition()->fields())
    if (f->getNameAsString() == field) return f;
  throw ir::InternalError("struct '" + record->getNameAsString() + "' has no field '" + field + "'");
}

// Vec3 d = {e1, e2, e3};  Vec3 d{};  Vec3 d = p;  Vec3 d;  -> a local per field, initialized
// from the list, the copied struct's field, or else zero.
void Converter::declareStructLocal(const VarDecl* vd, const ir::Type& type, ir::StmtList& out) {
  const Expr* init = vd->getInit() ? vd->getInit()->IgnoreImplicit() : nullptr;
  const auto* list = dyn_cast_or_null<InitListExpr>(init);
  const Expr* source = copiedStruct(init);
  if (init && !list && !source && !isa<CXXConstructExpr>(init)) {
    fail(init->getSourceRange(), "this initializer of a local struct is not supported",
         "initialize it with a braced list of its fields' values, or a copy of another struct");
    return;
  }
  std::map<std::string, std::string>& fields = structLocals_[vd];
  size_t k = 0;
  for (const auto& [field, fieldType] : type.record->fields) {
    std::string name = freshName(vd->getNameAsString() + "_" + field);
    fields[field] = name;
    ir::ExprPtr value;
    if (list && k < list->getNumInits() && !isa<ImplicitValueInitExpr>(list->getInit(k)))
      value = convertExpr(list->getInit(k));
    else if (source)
      value = fieldOf(source, field);
    else
      value = ir::number(0, *fieldType);  // (left indeterminate by C++: zero is one of its values)
    out.push_back(ir::at(ir::decl(name, *fieldType, value), loc(vd->getBeginLoc())));
    ++k;
  }
}

// s.f of a struct expression: a scalarized local's field local, a field of an element pointed to
// (x4[i].y, *p, __ldg(x4 + i)), an argument of make_float4 or of a braced list, or a parameter's
// field.
ir::ExprPtr Converter::fieldOf(const Expr* object, const std::string& field) {
  object = structValue(object)->IgnoreParenImpCasts();
  if (const auto* sub = dyn_cast<ArraySubscriptExpr>(object))
    return elementField(sub->getBase(), convertExpr(sub->getIdx()), field);
  if (const auto* u = dyn_cast<UnaryOperator>(object); u && u->getOpcode() == UO_Deref)
    return elementField(u->getSubExpr(), ir::number(0, ir::Type::integer()), field);
  if (const auto* list = dyn_cast<InitListExpr>(object)) {  // p = {a, b, c}
    const FieldDecl* f = fieldNamed(list->getType()->getAsRecordDecl(), field);
    unsigned k = f->getFieldIndex();
    return k < list->getNumInits() && !isa<ImplicitValueInitExpr>(list->getInit(k))
               ? convertExpr(list->getInit(k))
               : ir::number(0, *convertType(f->getType(), f->getSourceRange()));
  }
  if (const auto* call = dyn_cast<CallExpr>(object)) {
    const FunctionDecl* fd = call->getDirectCallee();
    if (fd && cuda::isCachedLoad(fd->getName()) && call->getNumArgs() == 1)
      return elementField(call->getArg(0), ir::number(0, ir::Type::integer()), field);
    if (const CallExpr* make = makeCall(call))
      return convertExpr(make->getArg(fieldNamed(call->getType()->getAsRecordDecl(), field)->getFieldIndex()));
    const FunctionDecl* def = fd ? fd->getDefinition() : nullptr;
    if (def && isOwnDifferentiated(def)) return inlinedField(call, field);
    return unsupportedExpr(call, "a struct returned by a call is not supported",
                           "return the fields through reference parameters, or build the struct from its fields");
  }
  if (isa<CXXThisExpr>(object))  // a field in a method, or in an inlined one its object's
    return thisFields_.empty() ? ir::member(convertThis(object), field) : thisFields_.back().at(field);
  if (const auto* ref = dyn_cast<DeclRefExpr>(object))
    if (auto local = structLocals_.find(dyn_cast<VarDecl>(ref->getDecl())); local != structLocals_.end()) {
      const std::string& name = local->second.at(field);
      for (const auto& [f, t] : convertType(ref->getType(), ref->getSourceRange())->record->fields)
        if (f == field) return ir::var(name, *t);
    }
  return ir::member(convertExpr(object), field);
}

// `v = w;`, `y4[i] = v;`: the copy or move assignment of a whole struct.
bool Converter::isStructAssignment(const Expr* e) const {
  const auto* op = dyn_cast<CXXOperatorCallExpr>(e->IgnoreImplicit());
  const auto* method = op ? dyn_cast_or_null<CXXMethodDecl>(op->getDirectCallee()) : nullptr;
  return method && op->getOperator() == OO_Equal &&
         (method->isCopyAssignmentOperator() || method->isMoveAssignmentOperator());
}

void Converter::convertStructAssignment(const Expr* e, ir::StmtList& out) {
  const auto* op = cast<CXXOperatorCallExpr>(e->IgnoreImplicit());
  auto type = convertType(op->getArg(0)->getType(), op->getSourceRange());
  if (!type) return;
  std::vector<ir::ExprPtr> targets;
  for (const auto& field : type->record->fields) targets.push_back(fieldOf(op->getArg(0), field.first));
  assignStruct(e, *type, targets, op->getArg(1), out);
}

// Each of `targets`, the fields of a struct, gets its field of `value`. Where a field's new value
// reads what an earlier field's assignment changes (`v = make_float4(v.y, v.x, ...)`), the new
// values are computed into locals first.
void Converter::assignStruct(const Expr* whole, const ir::Type& type, const std::vector<ir::ExprPtr>& targets,
                             const Expr* value, ir::StmtList& out) {
  std::vector<ir::ExprPtr> values;
  for (const auto& field : type.record->fields) values.push_back(fieldOf(value, field.first));
  bool overlaps = false;
  for (size_t k = 0; k < targets.size(); ++k) {
    if (targets[k]->kind != ir::ExprKind::Var && targets[k]->kind != ir::ExprKind::Index) {
      fail(whole->getSourceRange(), "assignment to this struct is not supported",
           "assign to a local struct or to an element of a view of an array (y4[i] = v)");
      return;
    }
    for (size_t later = k + 1; later < values.size(); ++later)
      overlaps = overlaps || ir::reads(values[later], ir::rootName(*targets[k]));
  }
  ir::SourceLoc at = loc(whole->getBeginLoc());
  for (size_t k = 0; overlaps && k < values.size(); ++k) {
    std::string name = freshName(ir::rootName(*targets[k]) + "_new");
    out.push_back(ir::at(ir::decl(name, values[k]->type, values[k]), at));
    values[k] = ir::var(name, values[k]->type);
  }
  for (size_t k = 0; k < targets.size(); ++k)
    out.push_back(ir::at(ir::assign(targets[k], ir::Op::Assign, values[k]), at));
}

}  // namespace adjoint::frontend::detail
