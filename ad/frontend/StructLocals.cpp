// Local variables of struct type, as scalars: `Vec3 d = {a.x - b.x, ...};` is one local per field
// (d_x, d_y, d_z), and `d.x` reads or assigns d_x, so that every field is differentiated as the
// scalar it is (see Converter.h). Whole structs move field by field: `float4 v = x4[i];`,
// `y4[i] = make_float4(a, b, c, d);`, `r = v;` are an assignment per field.
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
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

// The struct an initializer copies (`Vec3 e = d;`, `Vec3 e(p);`, `float4 v = x4[i];`), makes
// (`make_float4(a, b, c, d)`) or constructs (`V v(a, b);`, `Vec3 d;`), or null for a braced list
// of an aggregate's fields.
const Expr* copiedStruct(const Expr* init) {
  if (!init) return nullptr;
  const Expr* value = structValue(init);
  return isa<InitListExpr>(value) ? nullptr : value;
}

// std::forward<U>(a) and std::move(a), as a constructor passes its parameters on: a.
const Expr* forwarded(const Expr* e) {
  e = e->IgnoreImplicit();
  const auto* call = dyn_cast<CallExpr>(e);
  const FunctionDecl* fd = call ? call->getDirectCallee() : nullptr;
  if (fd && fd->isInStdNamespace() && (fd->getName() == "forward" || fd->getName() == "move") &&
      call->getNumArgs() == 1)
    return call->getArg(0)->IgnoreImplicit();
  return e;
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

// Vec3 d = {e1, e2, e3};  Vec3 d{};  Vec3 d = p;  V v(a, b);  Vec3 d;  -> a local per field,
// initialized from the list, the copied or constructed struct's field, or else zero.
void Converter::declareStructLocal(const VarDecl* vd, const ir::Type& type, ir::StmtList& out) {
  const Expr* init = vd->getInit() ? vd->getInit()->IgnoreImplicit() : nullptr;
  const auto* list = dyn_cast_or_null<InitListExpr>(init);
  const Expr* source = copiedStruct(init);
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
// (x4[i].y, *p, __ldg(x4 + i)), an argument of make_float4, std::make_tuple, a braced list or a
// constructor, or a parameter's field.
ir::ExprPtr Converter::fieldOf(const Expr* object, const std::string& field) {
  object = structValue(object)->IgnoreParenImpCasts();
  if (const RecordDecl* record = object->getType()->getAsRecordDecl(); record && isStdTuple(record))
    if (auto type = convertType(object->getType(), object->getSourceRange()))
      if (ir::ExprPtr made = madeTupleField(object, field, *type)) return made;
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
    if (ir::ExprPtr made = pairCallField(call, field)) return made;
    if (const CallExpr* make = makeCall(call))
      return convertExpr(make->getArg(fieldNamed(call->getType()->getAsRecordDecl(), field)->getFieldIndex()));
    const FunctionDecl* def = fd ? fd->getDefinition() : nullptr;
    if (def && isOwnDifferentiated(def)) return inlinedField(call, field);
    return unsupportedExpr(call, "a struct returned by a call is not supported",
                           "return the fields through reference parameters, or build the struct from its fields");
  }
  if (const auto* c = dyn_cast<CXXConstructExpr>(object)) {
    if (c->getNumArgs() == 0 && !pairFormat(c->getType()).empty())
      return ir::number(0, ir::Type::of(ir::Scalar::Float));  // __nv_bfloat162 r; (indeterminate: zero is one value)
    return constructedField(c, field);
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

// The value constructor call `c` gives `field`: the argument its member initializer names
// (`V(double a, double b) : x(a), y(b) {}`, and std::pair's), a constant it is initialized with,
// its default member initializer, or else zero (a default constructor leaves it indeterminate:
// zero is one of its values).
ir::ExprPtr Converter::constructedField(const CXXConstructExpr* c, const std::string& field) {
  const FieldDecl* f = fieldNamed(c->getType()->getAsRecordDecl(), field);
  const FunctionDecl* def = nullptr;
  const Stmt* body = c->getConstructor()->getBody(def);
  const auto* ctor = cast<CXXConstructorDecl>(def ? def : c->getConstructor());
  if (const auto* block = dyn_cast_or_null<CompoundStmt>(body); body && (!block || !block->body_empty()))
    return unsupportedExpr(c, "a constructor with statements in its body is not supported",
                           "initialize the fields in its member initializer list, from its parameters");
  const Expr* init = f->getInClassInitializer();
  for (const CXXCtorInitializer* i : ctor->inits())
    if (i->getMember() == f) init = i->getInit();
  if (const auto* d = dyn_cast_or_null<CXXDefaultInitExpr>(init ? init->IgnoreImplicit() : nullptr))
    init = d->getExpr();
  if (!init) return ir::number(0, *convertType(f->getType(), f->getSourceRange()));
  const Expr* value = forwarded(init);
  if (const auto* ref = dyn_cast<DeclRefExpr>(value))
    if (const auto* p = dyn_cast<ParmVarDecl>(ref->getDecl()); p && p->getDeclContext() == ctor)
      return convertExpr(c->getArg(p->getFunctionScopeIndex()));
  if (value->isEvaluatable(ctx_)) return convertExpr(value);
  return unsupportedExpr(c, "this constructor computes field '" + field + "' in a way that is not supported",
                         "initialize each field with one of the constructor's parameters (V(double a) : x(a) {}) or "
                         "a constant, or build the struct with a braced list");
}

// std::get<k>(t) of a std::pair (k = 0: first, 1: second) or a std::tuple: its field k; null
// for any other call.
ir::ExprPtr Converter::getElement(const CallExpr* call) {
  const FunctionDecl* fd = call->getDirectCallee();
  if (!fd->isInStdNamespace() || fd->getName() != "get" || call->getNumArgs() != 1) return nullptr;
  const RecordDecl* record = call->getArg(0)->getType()->getAsRecordDecl();
  const TemplateArgumentList* args = fd->getTemplateSpecializationArgs();
  if (!record || !(isStdPair(record) || isStdTuple(record)) || !args ||
      args->get(0).getKind() != TemplateArgument::Integral)
    return nullptr;  // (std::get<double>(p), by type, is left to the call's own diagnostic)
  int64_t k = args->get(0).getAsIntegral().getExtValue();
  return fieldOf(call->getArg(0), isStdTuple(record) ? std::to_string(k) : k == 0 ? "first" : "second");
}

// Field `field` ("0", "1", ...) of a std::tuple that std::make_tuple(a, b, ...) or its
// constructor makes from the elements (`std::tuple<double, int> t(a, n)`, `return {a, n};`), or
// that its default constructor value-initializes (zero); null for a tuple named or returned.
ir::ExprPtr Converter::madeTupleField(const Expr* tuple, const std::string& field, const ir::Type& type) {
  unsigned k = static_cast<unsigned>(std::stoul(field));
  const auto* call = dyn_cast<CallExpr>(tuple);
  const FunctionDecl* fd = call ? call->getDirectCallee() : nullptr;
  if (fd && fd->isInStdNamespace() && fd->getName() == "make_tuple" && k < call->getNumArgs())
    return convertExpr(call->getArg(k));
  const auto* c = dyn_cast<CXXConstructExpr>(tuple);
  if (!c) return nullptr;
  if (c->getNumArgs() == 0) return ir::number(0, *type.record->fields.at(k).second);
  if (c->getNumArgs() == type.record->fields.size() && !c->getConstructor()->isCopyOrMoveConstructor())
    return convertExpr(c->getArg(k));
  return unsupportedExpr(c, "this construction of a std::tuple is not supported",
                         "make it from its elements (std::tuple<double, int> t(a, n), std::make_tuple(a, n))");
}

// auto [r, t] = polar(x, y);  const auto& [m, v] = p;  -> the k-th name is the struct's k-th field
// (of a std::pair: first, second; of a std::tuple: element k). A copy is a local per name; a reference to a struct the
// function names (a local, a parameter, an element) is that struct's fields themselves.
void Converter::declareBindings(const DecompositionDecl* dd, ir::StmtList& out) {
  auto type = convertType(dd->getType().getNonReferenceType(), dd->getSourceRange());
  if (!type) return;
  if (!type->isStruct()) {
    fail(dd->getSourceRange(), "a structured binding of this type is not supported",
         "bind the fields of a struct, a std::pair or a std::tuple");
    return;
  }
  const Expr* init = dd->getInit();
  bool alias = dd->getType()->isReferenceType() && init->IgnoreImplicit()->isLValue();
  size_t k = 0;
  for (const BindingDecl* b : dd->bindings()) {
    const auto& [field, fieldType] = type->record->fields.at(k++);
    ir::ExprPtr value = fieldOf(init, field);
    if (!alias) {
      std::string name = freshName(b->getNameAsString());
      out.push_back(ir::at(ir::decl(name, *fieldType, value), loc(b->getLocation())));
      value = ir::var(name, *fieldType);
    }
    bindings_[b] = value;
  }
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
