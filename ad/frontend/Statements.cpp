// Statements: Clang's statements and declarations converted to the IR's (see Converter.h).
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/AST/StmtVisitor.h>

#include "ad/frontend/Constructs.h"
#include "ad/frontend/Converter.h"
#include "ad/frontend/Cuda.h"

namespace adjoint::frontend::detail {

ir::StmtList Converter::convertBody(const Stmt* s) {
  struct Nested {  // the depth of blocks: 1 for the function's own statements
    int& depth;
    explicit Nested(int& d) : depth(++d) {}
    ~Nested() { --depth; }
  } nested(nesting_);
  ir::StmtList out;
  if (const auto* cs = dyn_cast_or_null<CompoundStmt>(s)) {
    for (const Stmt* child : cs->body()) convertStmt(child, out);
  } else if (s) {
    convertStmt(s, out);
  }
  return out;
}

void Converter::convertDecl(const VarDecl* vd, ir::StmtList& out) {
  if (const auto* bindings = dyn_cast<DecompositionDecl>(vd)) {
    declareBindings(bindings, out);
    return;
  }
  if (const auto* record = vd->getType()->getAsCXXRecordDecl(); record && record->isLambda()) {
    declareLambda(vd, out);
    return;
  }
  if (standardContainer(vd->getType()) && !vd->getType()->isReferenceType()) {
    declareContainer(vd, out);
    return;
  }
  if (isGroupType(vd->getType())) {
    declareGroup(vd);
    return;
  }
  bool shared = cuda::isShared(vd);
  if (!shared && vd->getType()->isPointerType() && vd->isLocalVarDecl() && !vd->isStaticLocal()) {
    declarePointer(vd, out);
    return;
  }
  if (shared && vd->hasExternalStorage()) {
    declareDynamicShared(vd, out);
    return;
  }
  if (shared && !ctx_.getAsConstantArrayType(vd->getType())) {
    fail(vd->getSourceRange(), "this __shared__ variable is not supported",
         "declare shared memory as a fixed-size __shared__ array (a one-element array for a scalar), or as "
         "extern __shared__ T name[] sized by the launch");
    return;
  }
  if (!shared && (vd->isStaticLocal() || vd->hasExternalStorage())) {
    fail(vd->getSourceRange(), "static or extern local variable '" + vd->getNameAsString() + "' is not supported",
         "state that outlives a call cannot be differentiated; pass it as a parameter");
    return;
  }
  if (isPack(vd->getType())) {
    declarePack(vd, out);
    return;
  }
  auto t = convertType(vd->getType(), vd->getSourceRange());
  if (!t) return;
  if (vd->getInit() && isAlgorithm(vd->getInit())) {
    // double s = std::accumulate(...): s is the sum the loop adds into, when it has the sum's type.
    bool same = vd->getType().getCanonicalType() == vd->getInit()->IgnoreParenImpCasts()->getType().getCanonicalType();
    std::string name = localName(vd);
    ir::ExprPtr value = lowerAlgorithm(vd->getInit(), same ? name : freshName("sum"), out);
    if (value->kind != ir::ExprKind::Var || value->text != name)
      out.push_back(ir::at(ir::decl(name, *t, ir::cast(*t, value)), loc(vd->getBeginLoc())));
    return;
  }
  if (t->isStruct()) {
    declareStructLocal(vd, *t, out);
    return;
  }
  if (const CallExpr* reduce = groupReduce(vd->getInit(), vd->getType())) {
    lowerReduce(reduce, ir::var(localName(vd), *t), /*declare=*/true, out);
    return;
  }
  t->shared = shared;
  auto s = ir::at(ir::decl(localName(vd), *t, nullptr), loc(vd->getBeginLoc()));
  if (const Expr* init = vd->getInit()) {
    if (const auto* list = dyn_cast<InitListExpr>(init->IgnoreImplicit())) {
      flattenInitializer(list, t->element(), s->args);
    } else if (t->arraySize > 0) {
      fail(init->getSourceRange(), "this array initializer is not supported", "use a braced list of values");
    } else {
      s->expr = t->scalar == ir::Scalar::Opaque ? convertConstructed(init) : convertExpr(init);
    }
  }
  out.push_back(s);
}

// The values of a braced list of an array, row after row for an array of arrays (`{{1, 2}, {3}}`
// of `double m[2][2]`: 1, 2, 3, 0), the elements it leaves out zero.
void Converter::flattenInitializer(const InitListExpr* list, const ir::Type& element, std::vector<ir::ExprPtr>& out) {
  size_t start = out.size();
  for (const Expr* e : list->inits()) {
    const auto* row = dyn_cast<InitListExpr>(e->IgnoreImplicit());
    if (row && row->getType()->isArrayType())
      flattenInitializer(row, element, out);
    else
      out.push_back(convertExpr(e));
  }
  const auto* array = ctx_.getAsConstantArrayType(list->getType());
  size_t length = array ? static_cast<size_t>(ctx_.getConstantArrayElementCount(array)) : out.size() - start;
  while (out.size() - start < length) out.push_back(ir::number(0, element));
}

// `extern __shared__ float tile[];`: the launch's dynamic shared memory, as a shared pointer
// local with no initializer (transforms/DynamicShared.h places it, and a derivative's adjoints
// after it). One such array per kernel: several would alias.
void Converter::declareDynamicShared(const VarDecl* vd, ir::StmtList& out) {
  const auto* array = ctx_.getAsIncompleteArrayType(vd->getType());
  std::optional<ir::Type> element = array ? convertType(array->getElementType(), vd->getSourceRange()) : std::nullopt;
  if (!array || !element || element->isIndexed() || element->isStruct() || !currentIsKernel_ || dynamicShared_) {
    fail(vd->getSourceRange(), "this extern __shared__ variable is not supported",
         "declare one extern __shared__ array of scalars per kernel, in the kernel (extern __shared__ float tile[])");
    return;
  }
  dynamicShared_ = true;
  ir::Type t = element->pointerTo(false);
  t.shared = true;
  out.push_back(ir::at(ir::decl(vd->getNameAsString(), t, nullptr), loc(vd->getBeginLoc())));
}

// `atomicAdd(&x[i], v);` is `x[i] += v` done atomically: differentiated as that statement.
ir::StmtPtr Converter::convertAtomicAdd(const CallExpr* call) {
  ir::ExprPtr target = call->getNumArgs() == 2 ? convertAddress(call->getArg(0)) : nullptr;
  if (!target) {
    fail(call->getSourceRange(), "this atomicAdd is not supported",
         "add into an array element: atomicAdd(&x[i], v) or atomicAdd(x, v)");
    return nullptr;
  }
  ir::StmtPtr s = ir::at(ir::assign(target, ir::Op::Add, convertExpr(call->getArg(1))), loc(call->getBeginLoc()));
  s->atomic = true;
  return s;
}

// The element a pointer expression addresses: p is p[0], &p[i] and p + i are p[i].
ir::ExprPtr Converter::convertAddress(const Expr* e) {
  if (!e->getType()->isPointerType() || !pointerValue(e)) return nullptr;
  return elementAt(e, ir::number(0, ir::Type::integer()));
}

ir::StmtPtr Converter::convertAssignment(const Expr* e) {
  e = e->IgnoreParens();
  if (const auto* b = dyn_cast<BinaryOperator>(e)) {
    std::optional<ir::Op> op = b->isAssignmentOp() ? irOperator(b->getOpcode()) : std::nullopt;
    if (!op || *op == ir::Op::Rem) {
      fail(b->getSourceRange(), "operator '" + b->getOpcodeStr().str() + "' is not supported",
           "write the operation out with = ");
      return nullptr;
    }
    if (isPointerAlias(b->getLHS())) return assignPointer(b, b->getLHS(), *op, b->getRHS());
    ir::ExprPtr lhs = convertExpr(b->getLHS());
    if (writesReadOnlyContainer(lhs, b)) return nullptr;
    if (lhs->kind != ir::ExprKind::Var && lhs->kind != ir::ExprKind::Index) {
      fail(b->getLHS()->getSourceRange(), "assignment to this expression is not supported",
           "assign to a variable or an array element");
      return nullptr;
    }
    return ir::at(ir::assign(lhs, *op, convertExpr(b->getRHS())), loc(b->getBeginLoc()));
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) {
    ir::Op op = u->isIncrementOp() ? ir::Op::Add : ir::Op::Sub;
    if (isPointerAlias(u->getSubExpr())) return assignPointer(u, u->getSubExpr(), op, nullptr);
    ir::ExprPtr target = convertExpr(u->getSubExpr());
    if (writesReadOnlyContainer(target, u)) return nullptr;
    return ir::at(ir::assign(target, op, ir::number(1, target->type)), loc(u->getBeginLoc()));
  }
  return nullptr;
}

// An assignment or ++/-- inside an expression (`a = b = x * y`, `w[k++]`): the assignment goes
// before the statement (a well-defined program reads nothing it changes before the change), and
// the expression reads what it leaves: the variable assigned, or for x++ the value x had, kept in
// a local first.
ir::ExprPtr Converter::assignmentValue(const Expr* e) {
  if (!prelude_) return needsNoStatements(e, "an assignment or ++/--");
  const auto* u = dyn_cast<UnaryOperator>(e);
  const Expr* target = u ? u->getSubExpr() : cast<BinaryOperator>(e)->getLHS();
  if (isPointerAlias(target))
    return unsupportedExpr(e, "moving a pointer inside an expression is not supported",
                           "move it in a statement of its own");
  ir::StmtList* before = prelude_;
  ir::ExprPtr previous;
  if (u && u->isPostfix()) {
    ir::ExprPtr value = convertExpr(target);
    std::string name = freshName(ir::rootName(*value) + "_before");
    before->push_back(ir::at(ir::decl(name, value->type, value), loc(e->getBeginLoc())));
    previous = ir::var(name, value->type);
  }
  ir::StmtPtr assignment = convertAssignment(e);
  if (!assignment) return placeholder();
  before->push_back(assignment);
  return previous ? previous : convertExpr(target);
}

// The condition of an if or a loop (declaring `variable`, where it does), with the statements it
// needs computed first (for a loop's, on every iteration) in `before`: the variable's declaration,
// an inlined call, an assignment inside it (`while (n-- > 0)`), an algorithm's loop.
ir::ExprPtr Converter::condition(const VarDecl* variable, const Expr* cond, ir::StmtList& before) {
  PreludeTo to(prelude_, &before);
  if (variable) convertDecl(variable, before);
  return convertExpr(cond);
}

namespace {

// Whether `s` holds a continue of the loop whose body it is (not one of a loop nested in it).
bool continuesLoop(const Stmt* s) {
  if (!s || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr>(s)) return false;
  if (isa<ContinueStmt>(s)) return true;
  return std::any_of(s->child_begin(), s->child_end(), [](const Stmt* child) { return continuesLoop(child); });
}

// if (!cond) break;
ir::StmtPtr breakUnless(ir::ExprPtr cond) {
  return ir::ifStmt(ir::unary(ir::Op::Not, std::move(cond)), {ir::jump(ir::StmtKind::Break)});
}

// A loop whose condition needs statements computed first tests it at the top of its body, and
// leaves when it fails:  while (true) { before; if (!cond) break; body }.  (A continue goes on to
// the next test, through the for loop's step.)
void testedFirst(ir::StmtList& before, ir::ExprPtr& cond, ir::StmtList& body) {
  if (before.empty()) return;
  before.push_back(breakUnless(cond));
  body.insert(body.begin(), before.begin(), before.end());
  cond = ir::boolean(true);
}

}  // namespace

// Converts one statement into `out`: a case per kind of statement Clang has (the visitor falls back
// from a kind it has no case for to its base class: every expression to VisitExpr, anything else
// to VisitStmt, which says it is not supported).
class StatementConverter : public ConstStmtVisitor<StatementConverter> {
 public:
  StatementConverter(Converter& c, ir::StmtList& out) : c_(c), out_(out) {}

  void VisitCompoundStmt(const CompoundStmt* cs) {
    out_.push_back(ir::at(ir::block(c_.convertBody(cs)), c_.loc(cs->getBeginLoc())));
  }
  void VisitNullStmt(const NullStmt*) {}

  void VisitDeclStmt(const DeclStmt* ds) {
    if (c_.passThrough(ds, out_)) return;
    for (const Decl* d : ds->decls()) {
      if (const auto* vd = dyn_cast<VarDecl>(d))
        c_.convertDecl(vd, out_);
      else if (isa<NamespaceAliasDecl, UsingDirectiveDecl, UsingDecl, TypedefNameDecl, StaticAssertDecl>(d))
        continue;  // names and checks for the compiler: nothing runs
      else
        c_.fail(d->getSourceRange(), "this declaration is not supported inside a differentiated function",
                "move it out of the function");
    }
  }

  // if (init; T v = e) ...: the init and the variable go before the if, in a block that keeps
  // their names to it. if constexpr: the branch the instantiation keeps, alone, in a block.
  void VisitIfStmt(const IfStmt* is) {
    ir::StmtList before;
    c_.convertStmt(is->getInit(), before);
    ir::StmtPtr branch;
    if (is->isConstexpr()) {
      branch = ir::block(c_.convertBody(is->getNondiscardedCase(c_.ctx_).value_or(nullptr)));
    } else {
      ir::ExprPtr cond = c_.condition(is->getConditionVariable(), is->getCond(), before);
      branch = ir::ifStmt(cond, c_.convertBody(is->getThen()), c_.convertBody(is->getElse()));
    }
    branch = ir::at(branch, c_.loc(is->getBeginLoc()));
    if (!is->getInit() && !is->getConditionVariable()) {
      out_.insert(out_.end(), before.begin(), before.end());  // (what the condition needs first)
      return out_.push_back(branch);
    }
    before.push_back(branch);
    out_.push_back(ir::at(ir::block(std::move(before)), c_.loc(is->getBeginLoc())));
  }

  // for (init; cond; step) body. A condition that needs statements first is tested at the top of
  // the body (see testedFirst); a step of several statements (`++i, --j`, an inlined call) goes
  // to the body's end; an init of several (`int i = 0, j = n - 1`) goes before the loop, in a
  // block of its own that keeps the names to the loop, the last one staying the loop's init.
  void VisitForStmt(const ForStmt* fs) {
    ir::StmtList init;
    c_.convertStmt(fs->getInit(), init);
    ir::StmtList before;
    ir::ExprPtr cond =
        fs->getCond() ? c_.condition(fs->getConditionVariable(), fs->getCond(), before) : ir::boolean(true);
    ir::StmtList step;
    c_.convertStmt(fs->getInc(), step);
    ir::StmtList body = c_.convertBody(fs->getBody());
    if (step.size() > 1) {
      if (continuesLoop(fs->getBody()))
        c_.fail(fs->getInc()->getSourceRange(),
                "a for loop's step of more than one statement, in a loop with continue, is not supported",
                "step one counter in the loop's head and the others where the body goes on to the next iteration");
      body.insert(body.end(), step.begin(), step.end());
      step.clear();
    }
    testedFirst(before, cond, body);
    ir::StmtPtr loop = ir::at(
        ir::forStmt(init.empty() ? nullptr : init.back(), cond, step.empty() ? nullptr : step[0], std::move(body)),
        c_.loc(fs->getBeginLoc()));
    if (init.size() <= 1) return out_.push_back(loop);
    init.back() = loop;
    out_.push_back(ir::at(ir::block(std::move(init)), c_.loc(fs->getBeginLoc())));
  }

  void VisitWhileStmt(const WhileStmt* ws) {
    ir::StmtList before;
    ir::ExprPtr cond = c_.condition(ws->getConditionVariable(), ws->getCond(), before);
    ir::StmtList body = c_.convertBody(ws->getBody());
    testedFirst(before, cond, body);
    out_.push_back(ir::at(ir::whileStmt(cond, std::move(body)), c_.loc(ws->getBeginLoc())));
  }

  // do body while (cond): where the condition needs statements first, they and the test go to
  // the body's end,  do { body; before; if (!cond) break; } while (true)  (no continue may skip them).
  void VisitDoStmt(const DoStmt* dw) {
    ir::StmtList body = c_.convertBody(dw->getBody());
    ir::StmtList before;
    ir::ExprPtr cond = c_.condition(nullptr, dw->getCond(), before);
    if (!before.empty()) {
      if (continuesLoop(dw->getBody()))
        c_.fail(dw->getCond()->getSourceRange(),
                "a do-while condition that needs statements computed first, in a loop with continue, is not supported",
                "compute it into a variable at the end of the body, and test that variable");
      body.insert(body.end(), before.begin(), before.end());
      body.push_back(breakUnless(cond));
      cond = ir::boolean(true);
    }
    auto loop = ir::whileStmt(cond, std::move(body));
    loop->kind = ir::StmtKind::DoWhile;
    out_.push_back(ir::at(loop, c_.loc(dw->getBeginLoc())));
  }

  void VisitBreakStmt(const BreakStmt* s) {
    out_.push_back(ir::at(ir::jump(ir::StmtKind::Break), c_.loc(s->getBeginLoc())));
  }
  void VisitContinueStmt(const ContinueStmt* s) {
    out_.push_back(ir::at(ir::jump(ir::StmtKind::Continue), c_.loc(s->getBeginLoc())));
  }
  void VisitReturnStmt(const ReturnStmt* rs) {
    if (c_.returnFromInlined(rs, out_)) return;
    out_.push_back(
        ir::at(ir::ret(rs->getRetValue() ? c_.convertExpr(rs->getRetValue()) : nullptr), c_.loc(rs->getBeginLoc())));
  }
  void VisitCXXForRangeStmt(const CXXForRangeStmt* loop) { c_.convertRangeFor(loop, out_); }
  void VisitSwitchStmt(const SwitchStmt* sw) { c_.convertSwitch(sw, out_); }

  // An expression statement: an assignment, ++/--, a call, a launch, an assert.
  void VisitExpr(const Expr* full) {
    if (c_.passThrough(full, out_)) return;
    const Expr* e = full;
    if (const auto* w = dyn_cast<ExprWithCleanups>(full)) e = w->getSubExpr();  // (temporaries it destroys)
    if (const auto* comma = dyn_cast<BinaryOperator>(e->IgnoreParens()); comma && comma->getOpcode() == BO_Comma) {
      VisitExpr(comma->getLHS());  // a, b;  is  a; b;
      VisitExpr(comma->getRHS());
      return;
    }
    const auto* call = dyn_cast<CallExpr>(e->IgnoreImplicit());
    const FunctionDecl* callee = call ? call->getDirectCallee() : nullptr;
    if (const Expr* condition = c_.assertedCondition(e)) {
      // assert(c): kept as the user wrote it; a condition of values alone, it has no derivative.
      out_.push_back(ir::at(ir::eval(ir::call("assert", {c_.convertExpr(condition)}, ir::Type::of(ir::Scalar::Void))),
                            c_.loc(e->getBeginLoc())));
    } else if (const auto* launch = dyn_cast<CUDAKernelCallExpr>(e->IgnoreImplicit())) {
      if (ir::StmtPtr l = c_.convertLaunch(launch)) out_.push_back(l);
    } else if (c_.isPackStore(call)) {
      c_.lowerPackStore(call, out_);
    } else if (c_.isRangeWrite(call)) {
      c_.lowerRangeWrite(call, out_);
    } else if (c_.isResizing(call)) {
      c_.lowerResizing(cast<CXXMemberCallExpr>(call), out_);
    } else if (call && c_.isLibraryCall(call)) {
      if (ir::StmtPtr l = c_.convertLibraryCall(call)) out_.push_back(l);
    } else if (const CallExpr* reduce = c_.groupReduce(assigned(e), e->getType())) {
      // v = cg::reduce(tile, v, op): the butterfly on v itself.
      c_.lowerReduce(reduce, c_.convertExpr(cast<BinaryOperator>(e->IgnoreParens())->getLHS()), false, out_);
    } else if (c_.isStorageAssignment(e)) {
      if (ir::StmtPtr a = c_.convertStorageAssignment(e)) out_.push_back(a);
    } else if (c_.isPackAssignment(e)) {
      c_.convertPackAssignment(e, out_);
    } else if (c_.isStructAssignment(e)) {
      c_.convertStructAssignment(e, out_);
    } else if (ir::StmtPtr a = c_.convertAssignment(e)) {
      out_.push_back(a);
    } else if (callee && callee->getName() == "atomicAdd") {
      if (ir::StmtPtr a = c_.convertAtomicAdd(call)) out_.push_back(a);
    } else if (callee && cuda::isCachedStore(callee->getName()) && call->getNumArgs() == 2) {
      // __stcs(&y[i], v): the store y[i] = v (the generated code stores plainly).
      storeThrough(call->getArg(0), call->getArg(1), e);
    } else if (call) {
      // (An inlined call leaves its body before this statement, and only its result here.)
      if (ir::ExprPtr value = c_.convertExpr(e); !c_.isInlinedValue(value))
        out_.push_back(ir::at(ir::eval(value), c_.loc(e->getBeginLoc())));
    } else if (!isa<BinaryOperator>(e->IgnoreParens())) {
      c_.fail(e->getSourceRange(), "this expression statement is not supported",
              "a statement must be an assignment, ++/--, or a call");
    }
  }

  void VisitGotoStmt(const GotoStmt* s) { unstructured(s); }
  void VisitIndirectGotoStmt(const IndirectGotoStmt* s) { unstructured(s); }
  void VisitLabelStmt(const LabelStmt* s) { unstructured(s); }
  void VisitAsmStmt(const AsmStmt* s) {
    c_.fail(s->getSourceRange(), "inline assembly cannot be differentiated",
            "move it into a function with a custom derivative");
  }
  void VisitCXXTryStmt(const CXXTryStmt* s) {
    c_.fail(s->getSourceRange(), "exceptions are not supported in differentiated code",
            "report errors through return values");
  }
  void VisitStmt(const Stmt* s) {
    c_.fail(s->getSourceRange(), constructName(s) + " is not supported in a differentiated function", "");
  }

 private:
  Converter& c_;
  ir::StmtList& out_;

  // The value of `target = value` for a local scalar variable target.
  static const Expr* assigned(const Expr* e) {
    const auto* b = dyn_cast<BinaryOperator>(e->IgnoreParens());
    const auto* ref = b && b->getOpcode() == BO_Assign ? dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParens()) : nullptr;
    const auto* vd = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    return vd && vd->isLocalVarDecl() && vd->getType()->isArithmeticType() ? b->getRHS() : nullptr;
  }

  // *pointer = value, for a value of a scalar or of a struct (a float4 stored field by field).
  void storeThrough(const Expr* pointer, const Expr* value, const Expr* whole) {
    ir::ExprPtr zero = ir::number(0, ir::Type::integer());
    if (!value->getType()->isRecordType()) {
      ir::ExprPtr target = c_.elementAt(pointer, zero);
      out_.push_back(ir::at(ir::assign(target, ir::Op::Assign, c_.convertExpr(value)), c_.loc(whole->getBeginLoc())));
      return;
    }
    auto type = c_.convertType(value->getType(), value->getSourceRange());
    if (!type) return;
    std::vector<ir::ExprPtr> targets;
    for (const auto& field : type->record->fields) targets.push_back(c_.elementField(pointer, zero, field.first));
    c_.assignStruct(whole, *type, targets, value, out_);
  }

  void unstructured(const Stmt* s) {
    c_.fail(s->getSourceRange(), "goto and labels are not supported",
            "use structured control flow: if, loops, break, continue");
  }
};

void Converter::convertStmt(const Stmt* s, ir::StmtList& out) {
  if (!s) return;
  // What an expression of s needs computed first (the loop of a std::accumulate) goes before s.
  PreludeTo prelude(prelude_, &out);
  StatementConverter(*this, out).Visit(s);
}

}  // namespace adjoint::frontend::detail
