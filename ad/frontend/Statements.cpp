// Statements: Clang's statements and declarations converted to the IR's (see Converter.h).
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>

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
  if (const auto* record = vd->getType()->getAsCXXRecordDecl(); record && record->isLambda()) {
    declareLambda(vd, out);
    return;
  }
  if (standardContainer(vd->getType()) && !vd->getType()->isReferenceType()) {
    declareContainer(vd, out);
    return;
  }
  bool shared = cuda::isShared(vd);
  if (!shared && vd->getType()->isPointerType() && vd->isLocalVarDecl() && !vd->isStaticLocal()) {
    declarePointer(vd, out);
    return;
  }
  if (shared && (vd->hasExternalStorage() || !ctx_.getAsConstantArrayType(vd->getType()))) {
    fail(vd->getSourceRange(), "this __shared__ variable is not supported",
         "declare shared memory as a fixed-size __shared__ array (a one-element array for a scalar)");
    return;
  }
  if (!shared && (vd->isStaticLocal() || vd->hasExternalStorage())) {
    fail(vd->getSourceRange(), "static or extern local variable '" + vd->getNameAsString() + "' is not supported",
         "state that outlives a call cannot be differentiated; pass it as a parameter");
    return;
  }
  auto t = convertType(vd->getType(), vd->getSourceRange());
  if (!t) return;
  if (vd->getInit() && isAlgorithm(vd->getInit())) {
    // double s = std::accumulate(...): s is the sum the loop adds into, when it has the sum's type.
    bool same = vd->getType().getCanonicalType() == vd->getInit()->IgnoreParenImpCasts()->getType().getCanonicalType();
    std::string name = vd->getNameAsString();
    ir::ExprPtr value = lowerAlgorithm(vd->getInit(), same ? name : freshName("sum"), out);
    if (value->kind != ir::ExprKind::Var || value->text != name)
      out.push_back(ir::at(ir::decl(name, *t, ir::cast(*t, value)), loc(vd->getBeginLoc())));
    return;
  }
  if (t->isStruct()) {
    declareStructLocal(vd, *t, out);
    return;
  }
  t->shared = shared;
  auto s = ir::at(ir::decl(vd->getNameAsString(), *t, nullptr), loc(vd->getBeginLoc()));
  if (const Expr* init = vd->getInit()) {
    if (const auto* list = dyn_cast<InitListExpr>(init->IgnoreImplicit())) {
      for (const Expr* e : list->inits()) s->args.push_back(convertExpr(e));
      if (list->hasArrayFiller())
        while (static_cast<int>(s->args.size()) < t->arraySize) s->args.push_back(ir::number(0, t->element()));
    } else if (t->arraySize > 0) {
      fail(init->getSourceRange(), "this array initializer is not supported", "use a braced list of values");
    } else {
      s->expr = t->scalar == ir::Scalar::Opaque ? convertConstructed(init) : convertExpr(init);
    }
  }
  out.push_back(s);
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
  if (!prelude_)
    return unsupportedExpr(
        e, "an assignment or ++/-- in a loop's condition or step, or under ?:, && or ||, is not supported",
        "write it as a statement of its own");
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

// A loop's condition, evaluated on every iteration: nothing can be computed before it.
ir::ExprPtr Converter::loopCondition(const Expr* cond) {
  LoopHead head(*this);
  return convertExpr(cond);
}

void Converter::convertStmt(const Stmt* s, ir::StmtList& out) {
  if (!s || isa<NullStmt>(s)) return;
  // What an expression of s needs computed first (the loop of a std::accumulate) goes before s.
  PreludeTo prelude(prelude_, loopHead_ ? nullptr : &out);
  if (const auto* cs = dyn_cast<CompoundStmt>(s)) {
    out.push_back(ir::at(ir::block(convertBody(cs)), loc(cs->getBeginLoc())));
  } else if (const auto* ds = dyn_cast<DeclStmt>(s)) {
    for (const Decl* d : ds->decls()) {
      if (const auto* vd = dyn_cast<VarDecl>(d))
        convertDecl(vd, out);
      else
        fail(d->getSourceRange(), "this declaration is not supported inside a differentiated function",
             "move it out of the function");
    }
  } else if (const auto* is = dyn_cast<IfStmt>(s)) {
    if (is->getInit() || is->getConditionVariable() || is->isConstexpr())
      fail(is->getSourceRange(), "if with an initializer, a condition variable or constexpr is not supported",
           "declare the variable before the if");
    out.push_back(ir::at(ir::ifStmt(convertExpr(is->getCond()), convertBody(is->getThen()), convertBody(is->getElse())),
                         loc(is->getBeginLoc())));
  } else if (const auto* fs = dyn_cast<ForStmt>(s)) {
    if (fs->getConditionVariable())
      fail(fs->getConditionVariable()->getSourceRange(), "a variable declared in a for condition is not supported",
           "declare it before the loop, or in the loop body");
    ir::StmtList init;
    convertStmt(fs->getInit(), init);
    if (init.size() > 1)
      fail(fs->getInit()->getSourceRange(), "a for loop may declare one variable here",
           "declare the others before the loop");
    ir::StmtList step;
    {
      LoopHead head(*this);
      if (fs->getInc()) convertStmt(fs->getInc(), step);
    }
    ir::ExprPtr cond = fs->getCond() ? loopCondition(fs->getCond()) : ir::boolean(true);
    out.push_back(ir::at(ir::forStmt(init.empty() ? nullptr : init[0], cond, step.empty() ? nullptr : step[0],
                                     convertBody(fs->getBody())),
                         loc(fs->getBeginLoc())));
  } else if (const auto* ws = dyn_cast<WhileStmt>(s)) {
    if (ws->getConditionVariable())
      fail(ws->getSourceRange(), "a while condition variable is not supported", "declare it before the loop");
    out.push_back(
        ir::at(ir::whileStmt(loopCondition(ws->getCond()), convertBody(ws->getBody())), loc(ws->getBeginLoc())));
  } else if (const auto* dw = dyn_cast<DoStmt>(s)) {
    auto loop = ir::whileStmt(loopCondition(dw->getCond()), convertBody(dw->getBody()));
    loop->kind = ir::StmtKind::DoWhile;
    out.push_back(ir::at(loop, loc(dw->getBeginLoc())));
  } else if (isa<BreakStmt>(s)) {
    out.push_back(ir::at(ir::jump(ir::StmtKind::Break), loc(s->getBeginLoc())));
  } else if (isa<ContinueStmt>(s)) {
    out.push_back(ir::at(ir::jump(ir::StmtKind::Continue), loc(s->getBeginLoc())));
  } else if (const auto* rs = dyn_cast<ReturnStmt>(s)) {
    out.push_back(
        ir::at(ir::ret(rs->getRetValue() ? convertExpr(rs->getRetValue()) : nullptr), loc(rs->getBeginLoc())));
  } else if (const auto* full = dyn_cast<Expr>(s)) {
    const Expr* e = full;
    if (const auto* w = dyn_cast<ExprWithCleanups>(full)) e = w->getSubExpr();  // (temporaries it destroys)
    if (const Expr* condition = assertedCondition(e)) {
      // assert(c): kept as the user wrote it; a condition of values alone, it has no derivative.
      out.push_back(ir::at(ir::eval(ir::call("assert", {convertExpr(condition)}, ir::Type::of(ir::Scalar::Void))),
                           loc(e->getBeginLoc())));
    } else if (const auto* launch = dyn_cast<CUDAKernelCallExpr>(e->IgnoreImplicit())) {
      if (ir::StmtPtr l = convertLaunch(launch)) out.push_back(l);
    } else if (const auto* call = dyn_cast<CallExpr>(e->IgnoreImplicit()); call && isLibraryCall(call)) {
      if (ir::StmtPtr l = convertLibraryCall(call)) out.push_back(l);
    } else if (ir::StmtPtr a = convertAssignment(e)) {
      out.push_back(a);
    } else if (const auto* call = dyn_cast<CallExpr>(e->IgnoreImplicit());
               call && call->getDirectCallee() && call->getDirectCallee()->getName() == "atomicAdd") {
      if (ir::StmtPtr a = convertAtomicAdd(call)) out.push_back(a);
    } else if (const auto* call = dyn_cast<CallExpr>(e->IgnoreImplicit());
               call && call->getDirectCallee() && cuda::isCachedStore(call->getDirectCallee()->getName()) &&
               call->getNumArgs() == 2) {
      // __stcs(&y[i], v): the store y[i] = v (the generated code stores plainly).
      ir::ExprPtr target = elementAt(call->getArg(0), ir::number(0, ir::Type::integer()));
      out.push_back(ir::at(ir::assign(target, ir::Op::Assign, convertExpr(call->getArg(1))), loc(e->getBeginLoc())));
    } else if (isa<CallExpr>(e->IgnoreImplicit())) {
      out.push_back(ir::at(ir::eval(convertExpr(e)), loc(e->getBeginLoc())));
    } else if (!isa<BinaryOperator>(e->IgnoreParens())) {
      fail(e->getSourceRange(), "this expression statement is not supported",
           "a statement must be an assignment, ++/--, or a call");
    }
  } else if (isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s) || isa<LabelStmt>(s)) {
    fail(s->getSourceRange(), "goto and labels are not supported",
         "use structured control flow: if, loops, break, continue");
  } else if (isa<AsmStmt>(s)) {
    fail(s->getSourceRange(), "inline assembly cannot be differentiated",
         "move it into a function with a custom derivative");
  } else if (isa<CXXTryStmt>(s)) {
    fail(s->getSourceRange(), "exceptions are not supported in differentiated code",
         "report errors through return values");
  } else if (const auto* loop = dyn_cast<CXXForRangeStmt>(s)) {
    convertRangeFor(loop, out);
  } else if (const auto* sw = dyn_cast<SwitchStmt>(s)) {
    convertSwitch(sw, out);
  } else {
    fail(s->getSourceRange(), constructName(s) + " is not supported in a differentiated function", "");
  }
}

}  // namespace adjoint::frontend::detail
