// Calls inlined where the IR cannot pass what they take or give (see Converter.h). Local structs
// are a local per field, and the IR's calls pass scalars, arrays and struct parameters: a call
// that returns a struct, or takes a local struct whole, is converted as its body in place, with
// its parameters bound to copies of the arguments (a pointer to an offset into the array it points
// into, a reference to what it names), so that every field is differentiated as the scalar it is.
#include <clang/AST/ExprCXX.h>
#include <clang/AST/LambdaCapture.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

namespace {

const ir::Type kOffset = ir::Type::integer("long");

bool isOutputReference(QualType t) { return t->isLValueReferenceType() && !t.getNonReferenceType().isConstQualified(); }

// The variable an expression names, through fields and elements (`v` of `v.x`, `a[i]`, `v`).
const VarDecl* namedVariable(const Expr* e) {
  for (e = e->IgnoreParenImpCasts();; e = e->IgnoreParenImpCasts()) {
    if (const auto* m = dyn_cast<MemberExpr>(e))
      e = m->getBase();
    else if (const auto* s = dyn_cast<ArraySubscriptExpr>(e))
      e = s->getBase();
    else
      break;
  }
  const auto* ref = dyn_cast<DeclRefExpr>(e);
  return ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
}

// Whether the body may change the parameter `p` (or a field of it): an assignment, ++/--, its
// address taken, or the parameter passed to a reference that is not const.
bool changes(const Stmt* body, const ParmVarDecl* p) {
  bool changed = false;
  visitAll(body, [&](const Stmt* s) {
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp())
      changed |= namedVariable(b->getLHS()) == p;
    if (const auto* u = dyn_cast<UnaryOperator>(s); u && (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf))
      changed |= namedVariable(u->getSubExpr()) == p;
    if (const auto* op = dyn_cast<CXXOperatorCallExpr>(s); op && op->isAssignmentOp())
      changed |= namedVariable(op->getArg(0)) == p;
    if (const auto* call = dyn_cast<CallExpr>(s); call && call->getDirectCallee())
      for (unsigned i = 0; i < std::min(call->getNumArgs(), call->getDirectCallee()->getNumParams()); ++i)
        changed |= isOutputReference(call->getDirectCallee()->getParamDecl(i)->getType()) &&
                   namedVariable(call->getArg(i)) == p;
  });
  return changed;
}

// The variable an access names, through elements, fields, pointer arithmetic and the pointers a
// container gives (p of `p[i]`, `*(p + k)`, `p->x`, `&p[i]`, `v.data()[i]`, `v.begin()`,
// `reinterpret_cast<float4*>(p)[i].x`); `through`: whether the access reaches what the variable
// points to or holds (an element), not the variable itself.
const VarDecl* accessedVariable(const Expr* e, bool& through) {
  through = false;
  for (;;) {
    e = e->IgnoreParenCasts();
    if (const auto* s = dyn_cast<ArraySubscriptExpr>(e)) {
      through = true;
      e = s->getBase();
    } else if (const auto* u = dyn_cast<UnaryOperator>(e);
               u && (u->getOpcode() == UO_Deref || u->getOpcode() == UO_AddrOf || u->isIncrementDecrementOp())) {
      through |= u->getOpcode() == UO_Deref;
      e = u->getSubExpr();
    } else if (const auto* m = dyn_cast<MemberExpr>(e)) {
      through |= m->isArrow();
      e = m->getBase();
    } else if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->isAdditiveOp()) {
      e = b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS();
    } else if (const auto* op = dyn_cast<CXXOperatorCallExpr>(e);
               op &&
               (op->getOperator() == OO_Subscript || op->getOperator() == OO_Star || op->getOperator() == OO_Arrow)) {
      through = true;
      e = op->getArg(0);
    } else if (const auto* mc = dyn_cast<CXXMemberCallExpr>(e)) {  // v.data(), v.begin()
      e = mc->getImplicitObjectArgument();
    } else {
      break;
    }
  }
  const auto* ref = dyn_cast<DeclRefExpr>(e);
  return ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
}

// The variable whose elements a store into `target` writes; null where it assigns a variable itself.
const VarDecl* storedThrough(const Expr* target) {
  bool through = false;
  const VarDecl* v = accessedVariable(target, through);
  return through ? v : nullptr;
}

// The variable whose elements an argument passes on (`p`, `p + k`, `&p[i]`, `v.data()`, `v`).
const VarDecl* passedElements(const Expr* arg) {
  bool through = false;
  return accessedVariable(arg, through);
}

// Whether a callee's parameter of type `t` can write what its argument points to: a pointer to
// something not const, a reference to a non-const container or array, an iterator of one.
bool writableElements(QualType t) {
  if (t->isPointerType()) return !t->getPointeeType().isConstQualified();
  if (t->isReferenceType())
    return !t.getNonReferenceType().isConstQualified() && !t.getNonReferenceType()->isArithmeticType();
  return t->isRecordType();  // an iterator passed by value
}

// The array parameters (pointers, containers by reference) whose elements `def` writes: through the
// parameter, through a local pointer into it, or through a call it passes them to (a function of
// the library is taken to write what it can). `open`: the functions being looked at, whose own
// calls count as writing nothing more (recursion).
std::set<const VarDecl*> writtenArrays(const FunctionDecl* def, std::set<const FunctionDecl*>& open) {
  std::set<const VarDecl*> written;
  if (!def || !def->hasBody() || !open.insert(def).second) return written;
  // Its parameters, and for a lambda what it captures.
  const CXXRecordDecl* closure = closureOf(def);
  auto own = [&](const VarDecl* vd) {
    if (isa<ParmVarDecl>(vd) && vd->getDeclContext() == def) return true;
    return closure && std::any_of(closure->captures_begin(), closure->captures_end(), [&](const LambdaCapture& c) {
             return c.capturesVariable() && c.getCapturedVar() == vd;
           });
  };
  // Each local pointer, to the parameters it may point into.
  std::map<const VarDecl*, std::set<const VarDecl*>> into;
  auto params = [&](const Stmt* value) {
    std::set<const VarDecl*> out;
    visitAll(value, [&](const Stmt* s) {
      const auto* ref = dyn_cast<DeclRefExpr>(s);
      const auto* vd = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
      if (!vd) return;
      if (own(vd)) out.insert(vd);
      if (auto it = into.find(vd); it != into.end()) out.insert(it->second.begin(), it->second.end());
    });
    return out;
  };
  auto store = [&](const VarDecl* vd) {
    if (!vd) return;
    if (own(vd)) written.insert(vd);
    if (auto it = into.find(vd); it != into.end()) written.insert(it->second.begin(), it->second.end());
  };
  for (int pass = 0; pass < 2; ++pass)  // (a pointer assigned after another's declaration reads it)
    visitAll(def->getBody(), [&](const Stmt* s) {
      if (const auto* ds = dyn_cast<DeclStmt>(s))
        for (const Decl* d : ds->decls())
          if (const auto* vd = dyn_cast<VarDecl>(d); vd && vd->getType()->isPointerType() && vd->getInit())
            into[vd].merge(params(vd->getInit()));
      if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp())
        if (const auto* ref = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts()))
          if (const auto* vd = dyn_cast<VarDecl>(ref->getDecl()); vd && vd->getType()->isPointerType() && !own(vd))
            into[vd].merge(params(b->getRHS()));
    });
  visitAll(def->getBody(), [&](const Stmt* s) {
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) store(storedThrough(b->getLHS()));
    if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp())
      store(storedThrough(u->getSubExpr()));
    const auto* call = dyn_cast<CallExpr>(s);
    if (const auto* op = dyn_cast_or_null<CXXOperatorCallExpr>(call); op && op->isAssignmentOp())
      store(storedThrough(op->getArg(0)));
    const FunctionDecl* callee = call ? call->getDirectCallee() : nullptr;
    if (!callee || isa<CXXOperatorCallExpr>(call)) return;
    const FunctionDecl* body = callee->getDefinition();
    if (body && body->getASTContext().getSourceManager().isInSystemHeader(body->getLocation())) body = nullptr;
    std::set<const VarDecl*> calleeWrites = writtenArrays(body, open);
    for (unsigned i = 0; i < std::min(call->getNumArgs(), callee->getNumParams()); ++i) {
      if (!writableElements(callee->getParamDecl(i)->getType())) continue;
      bool writes = body ? calleeWrites.count(body->getParamDecl(i)) > 0 : true;
      if (writes) store(passedElements(call->getArg(i)));
    }
  });
  open.erase(def);
  return written;
}

// Whether the body moves the pointer parameter `p` itself (p += k, ++p, p = q, &p), not only
// what it points to.
bool movesPointer(const Stmt* body, const ParmVarDecl* p) {
  auto isP = [&](const Expr* e) {
    const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return ref && ref->getDecl() == p;
  };
  bool moved = false;
  visitAll(body, [&](const Stmt* s) {
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) moved |= isP(b->getLHS());
    if (const auto* u = dyn_cast<UnaryOperator>(s); u && (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf))
      moved |= isP(u->getSubExpr());
  });
  return moved;
}

// Whether the function's only return is its body's last statement (or it has none): inlined, its
// body runs to the end and its result is the value of that return.
bool returnsAtEnd(const FunctionDecl* def) {
  int returns = 0;
  visitAll(def->getBody(), [&](const Stmt* s) { returns += isa<ReturnStmt>(s); });
  const auto* body = dyn_cast<CompoundStmt>(def->getBody());
  return returns == 0 || (returns == 1 && body && !body->body_empty() && isa<ReturnStmt>(body->body_back()));
}

}  // namespace

// Inlined, a function's stores are the caller's own: saved where the caller's reverse reads what
// they overwrite, and undone in the caller's buffers, which a gradient leaves as it received them.
std::string arraysWrittenReason(const FunctionDecl* fd) {
  std::set<const FunctionDecl*> open;
  std::set<const VarDecl*> written = writtenArrays(fd, open);
  for (const ParmVarDecl* p : fd->parameters())
    if (written.count(p) && (p->getType()->isPointerType() || p->getType()->isReferenceType()))
      return "it writes into its array parameter '" + p->getNameAsString() + "'";
  for (const VarDecl* v : written)
    if (!isa<ParmVarDecl>(v) || v->getDeclContext() != fd)
      return "it writes into '" + v->getNameAsString() + "', which it captures";
  return "";
}

// What the locals of an inlined call are named after: the callee (`rotate_result_x`), a lambda's
// local (`put_v`), `call` for a function object's operator() (`call_value`).
std::string Converter::inlinedName(const FunctionDecl* def) const {
  if (std::string lambda = lambdaName(def); !lambda.empty())  // <function>_<local>
    return lambda.rfind(currentFunction_ + "_", 0) == 0 ? lambda.substr(currentFunction_.size() + 1) : lambda;
  return def->getOverloadedOperator() == OO_Call ? "call" : def->getNameAsString();
}

std::string Converter::localName(const VarDecl* vd) const {
  auto it = renamed_.find(vd);
  return it != renamed_.end() ? it->second : vd->getNameAsString();
}

// A struct the IR passes whole: a parameter of the function being converted (not one of an
// inlined call's, which are locals per field), or its object in a method.
bool Converter::isStructParameter(const Expr* e) const {
  const Expr* value = structValue(e)->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(value)) return thisFields_.empty();
  const auto* ref = dyn_cast<DeclRefExpr>(value);
  const auto* p = ref ? dyn_cast<ParmVarDecl>(ref->getDecl()) : nullptr;
  return p && !structLocals_.count(p);
}

// Why a call of the program's function `fd` is inlined, or "" where it is called.
std::string Converter::inliningReason(const CallExpr* call, const FunctionDecl* fd) const {
  if (fd->getReturnType()->isRecordType()) return "it returns a struct";
  if (std::string why = arraysWrittenReason(fd); !why.empty()) return why;
  for (unsigned i = 0; i < std::min(call->getNumArgs(), fd->getNumParams()); ++i) {
    QualType t = fd->getParamDecl(i)->getType(), value = t.getNonReferenceType();
    if (value->isRecordType() && !standardContainer(value) && !isGroupType(value) &&
        !isStructParameter(call->getArg(i)))
      return "it takes a local struct";
    if (isOutputReference(t) && value->isArithmeticType()) return "it assigns a variable through a reference";
  }
  return "";
}

// The callee's locals get names no local of the function being converted has.
void Converter::renameCalleeLocals(const FunctionDecl* def) {
  visitAll(def->getBody(), [&](const Stmt* s) {
    if (const auto* ds = dyn_cast<DeclStmt>(s))
      for (const Decl* d : ds->decls())
        if (const auto* vd = dyn_cast<VarDecl>(d)) {
          std::string name = vd->getNameAsString();
          if (namesInFunction_.contains(name))
            renamed_[vd] = freshName(name);
          else
            namesInFunction_.insert(name);
        }
  });
}

// The parameter `p` of an inlined call, bound to its argument `arg`: a value (or a const
// reference) to a copy, a struct to a copy per field, a pointer to an offset into the array the
// argument points into, a reference to an output or a container to what the argument names.
void Converter::bindParameter(const FunctionDecl* def, const ParmVarDecl* p, const Expr* arg,
                              const std::set<const VarDecl*>& written, ir::StmtList& out) {
  QualType t = p->getType(), value = t.getNonReferenceType();
  std::string callee = inlinedName(def);
  std::string name = p->getName().empty() ? "unnamed" : p->getNameAsString();
  ir::SourceLoc at = loc(arg->getBeginLoc());
  // A parameter the body never changes names the argument's variables themselves where they are
  // variables (the fields of a local struct, a local, an array) that the call does not write
  // through a reference: no copy.
  bool changed = changes(def->getBody(), p);
  bool unchanged = !changed && !written.count(namedVariable(arg));
  if (value->isPointerType() || value->isArrayType()) {
    std::optional<PointerValue> pointer = pointerValue(arg);
    if (!pointer) return reportUnfollowed(arg);
    if (!pointer->offset && pointer->width == 1 && !movesPointer(def->getBody(), p)) {
      elementAliases_[p] = pointer->base;
      return;
    }
    std::string offset = freshName(callee + "_" + name + "_offset");
    out.push_back(ir::at(ir::decl(offset, kOffset, pointer->offset ? pointer->offset : ir::number(0, kOffset)), at));
    pointers_[p] = {pointer->base, offset, pointer->width};
    return;
  }
  if (standardContainer(value)) {
    elementAliases_[p] = convertExpr(arg);
    return;
  }
  auto type = convertType(value.getUnqualifiedType(), p->getSourceRange());
  if (!type) return;
  if (type->isStruct() && isOutputReference(t)) {
    const auto* ref = dyn_cast<DeclRefExpr>(arg->IgnoreParenImpCasts());
    auto local = ref ? structLocals_.find(dyn_cast<VarDecl>(ref->getDecl())) : structLocals_.end();
    if (local == structLocals_.end()) {
      fail(arg->getSourceRange(), "a struct that a call assigns through a reference must be a local struct here",
           "pass a local struct, and copy it where it belongs after the call");
      return;
    }
    structLocals_[p] = local->second;
    return;
  }
  if (type->isStruct()) {
    std::map<std::string, std::string>& fields = structLocals_[p];
    for (const auto& [field, fieldType] : type->record->fields) {
      ir::ExprPtr argument = fieldOf(arg, field);
      bool same = unchanged && argument->kind == ir::ExprKind::Var;
      fields[field] = same ? argument->text : freshName(callee + "_" + name + "_" + field);
      if (!same) out.push_back(ir::at(ir::decl(fields[field], *fieldType, argument), at));
    }
    return;
  }
  if (isOutputReference(t)) {
    ir::ExprPtr target = convertExpr(arg);
    if (target->kind != ir::ExprKind::Var && target->kind != ir::ExprKind::Index)
      fail(arg->getSourceRange(), "this argument cannot be assigned through a reference", "pass a variable");
    elementAliases_[p] = target;
    return;
  }
  bindValue(def, p, ir::cast(*type, convertExpr(arg)), unchanged, at, out);
}

// The scalar parameter `p` of an inlined call bound to the value `argument`: the argument's
// variable itself where the body never changes `p` (`unchanged`), else a copy.
void Converter::bindValue(const FunctionDecl* def, const ParmVarDecl* p, const ir::ExprPtr& argument, bool unchanged,
                          ir::SourceLoc at, ir::StmtList& out) {
  if (unchanged && argument->kind == ir::ExprKind::Var) {
    elementAliases_[p] = argument;
    return;
  }
  std::string copy = freshName(inlinedName(def) + "_" + (p->getName().empty() ? "unnamed" : p->getNameAsString()));
  out.push_back(ir::at(ir::decl(copy, argument->type, argument), at));
  elementAliases_[p] = ir::var(copy, argument->type);
}

// The call `call` of `def` (on `object`, for a method) inlined before the statement being
// converted: the value it leaves is its result's local (placeholder for void; a struct's fields
// through inlinedField).
ir::ExprPtr Converter::inlineCall(const Expr* where, const FunctionDecl* def, const Expr* object,
                                  const std::string& why, const std::map<const VarDecl*, ir::ExprPtr>& inBody,
                                  const std::vector<ir::ExprPtr>* converted) {
  const auto* call = dyn_cast<CallExpr>(where);
  std::string name = lambdaName(def).empty() ? def->getQualifiedNameAsString() : inlinedName(def);
  if (!prelude_) return needsNoStatements(where, "a call of '" + name + "', inlined (" + why + "),");
  if (std::any_of(inlined_.begin(), inlined_.end(), [&](const InlinedCall& c) { return c.callee == def; }))
    return unsupportedExpr(where, "'" + name + "' calls itself, and it is inlined (" + why + ")",
                           why.find("struct") != std::string::npos
                               ? "pass and return the struct's fields, or write the recursion as a loop"
                               : "write the recursion as a loop");
  auto type = convertType(call ? call->getType() : def->getReturnType(), where->getSourceRange(), /*allowVoid=*/true);
  if (!type) return placeholder();
  ir::StmtList& before = *prelude_;
  size_t first = before.size();
  ir::SourceLoc at = loc(where->getBeginLoc());
  std::map<std::string, ir::ExprPtr> self;
  QualType objectType = object ? object->getType() : QualType();
  if (object && objectType->isPointerType()) objectType = objectType->getPointeeType();  // this
  auto record = object ? convertType(objectType.getUnqualifiedType(), object->getSourceRange()) : std::nullopt;
  if (object && !record) return placeholder();
  if (object)  // (the object's fields themselves: a const method reads them, another assigns them)
    for (const auto& field : record->record->fields) self[field.first] = fieldOf(object, field.first);
  if (converted) {  // (scalars: an algorithm's elements)
    for (unsigned i = 0; i < std::min<size_t>(converted->size(), def->getNumParams()); ++i) {
      const ParmVarDecl* p = def->getParamDecl(i);
      auto t = convertType(p->getType().getNonReferenceType().getUnqualifiedType(), p->getSourceRange());
      if (!t) return placeholder();
      bindValue(def, p, ir::cast(*t, (*converted)[i]), !changes(def->getBody(), p), at, before);
    }
  } else {
    // (an operator called as a member, f(x): its object is the first argument)
    unsigned objectArgs = isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(def) ? 1 : 0;
    unsigned params = std::min(call->getNumArgs() - objectArgs, def->getNumParams());
    std::set<const VarDecl*> written;  // what the call may assign through references
    if (const auto* m = dyn_cast<CXXMethodDecl>(def); object && m && !m->isConst())
      written.insert(namedVariable(object));  // (null for `this`: arguments not named are copied anyway)
    for (unsigned i = 0; i < params; ++i)
      if (isOutputReference(def->getParamDecl(i)->getType()) || def->getParamDecl(i)->getType()->isPointerType())
        written.insert(namedVariable(call->getArg(objectArgs + i)));
    for (unsigned i = 0; i < params; ++i)
      bindParameter(def, def->getParamDecl(i), call->getArg(objectArgs + i), written, before);
  }
  renameCalleeLocals(def);
  InlinedCall inlined{def, *type, {}, returnsAtEnd(def)};
  std::string base = inlinedName(def);
  auto result = [&](const std::string& suffix, const ir::Type& t) {
    std::string local = freshName(base + "_" + suffix);  // rotate_result_x, energy_value
    if (!inlined.returnsAtEnd) before.push_back(ir::at(ir::decl(local, t, ir::number(0, t)), at));
    inlined.results.push_back(ir::var(local, t));
  };
  if (type->isStruct())
    for (const auto& [field, fieldType] : type->record->fields) result("result_" + field, *fieldType);
  else if (type->scalar != ir::Scalar::Void)
    result("value", *type);
  inlined_.push_back(inlined);
  if (object) thisFields_.push_back(self);
  std::map<const VarDecl*, ir::ExprPtr> outside;  // the aliases inBody hides while the body is converted
  for (const auto& [v, alias] : inBody) {
    if (auto it = elementAliases_.find(v); it != elementAliases_.end()) outside[v] = it->second;
    elementAliases_[v] = alias;
  }
  ir::StmtList body = convertBody(def->getBody());
  for (const auto& [v, alias] : inBody) elementAliases_.erase(v);
  elementAliases_.insert(outside.begin(), outside.end());
  if (object) thisFields_.pop_back();
  inlined_.pop_back();
  // (The callee's locals have names of their own: its body needs no scope of its own.)
  if (inlined.returnsAtEnd) {
    before.insert(before.end(), body.begin(), body.end());
  } else {
    before.push_back(ir::at(ir::block(body), at));
    before.back()->inlinedCall = true;
  }
  if (before.size() > first) before[first]->comment = name + " inlined: " + why;
  if (type->isStruct() && call) {
    auto& fields = inlinedStructs_[call];
    for (size_t k = 0; k < inlined.results.size(); ++k) fields[type->record->fields[k].first] = inlined.results[k];
  }
  ir::ExprPtr value = inlined.results.size() == 1 && !type->isStruct() ? inlined.results[0] : placeholder();
  inlinedValues_.insert(value);
  return value;
}

// A field of the struct an inlined call returns.
ir::ExprPtr Converter::inlinedField(const CallExpr* call, const std::string& field) {
  if (!inlinedStructs_.count(call)) {
    const auto* method = dyn_cast<CXXMemberCallExpr>(call);
    inlineCall(call, call->getDirectCallee()->getDefinition(), method ? method->getImplicitObjectArgument() : nullptr,
               "it returns a struct");
  }
  auto fields = inlinedStructs_.find(call);
  return fields != inlinedStructs_.end() ? fields->second.at(field) : placeholder();
}

// `return e;` in an inlined call's body: e into the result's locals, then a return that leaves
// the block (transforms/StructureJumps.h).
bool Converter::returnFromInlined(const ReturnStmt* rs, ir::StmtList& out) {
  if (inlined_.empty()) return false;
  const InlinedCall call = inlined_.back();  // (a copy: the values may inline calls of their own)
  ir::SourceLoc at = loc(rs->getBeginLoc());
  const Expr* value = rs->getRetValue();
  if (call.returnsAtEnd) {  // the result's locals declared with their values
    for (size_t k = 0; value && k < call.results.size(); ++k) {
      const ir::ExprPtr& r = call.results[k];
      ir::ExprPtr v = call.type.isStruct() ? fieldOf(value, call.type.record->fields[k].first) : convertExpr(value);
      out.push_back(ir::at(ir::decl(r->text, r->type, ir::cast(r->type, v)), at));
    }
    return true;
  }
  if (value && call.type.isStruct())
    assignStruct(value, call.type, call.results, value, out);
  else if (value && !call.results.empty())
    out.push_back(ir::at(ir::assign(call.results[0], ir::Op::Assign, convertExpr(value)), at));
  out.push_back(ir::at(ir::ret(nullptr), at));
  return true;
}

}  // namespace adjoint::frontend::detail
