#include "transforms/StructureJumps.h"

#include <set>

#include "ad/analysis/Loops.h"
#include "ad/ir/Names.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

bool isJump(const Stmt& s) {
  return s.kind == StmtKind::Break || s.kind == StmtKind::Continue || s.kind == StmtKind::Return;
}

// Whether control never falls out of the end of `body`.
bool alwaysJumps(const StmtList& body) {
  if (body.empty()) return false;
  const Stmt& last = *body.back();
  if (isJump(last)) return true;
  if (last.kind == StmtKind::If) return alwaysJumps(last.body) && alwaysJumps(last.elseBody);
  if (last.kind == StmtKind::Block) return alwaysJumps(last.body);
  return false;
}

class JumpStructurer {
 public:
  // Rewrites `body`; `continuation` is what runs after it on the fall-through path (a for
  // loop's step), `inLoop` whether break/continue are legal here.
  StmtList list(const StmtList& body, const StmtList& continuation, bool inLoop) {
    StmtList out;
    for (size_t i = 0; i < body.size(); ++i) {
      StmtPtr s = body[i];
      StmtList rest(body.begin() + i + 1, body.end());
      if (s->kind == StmtKind::Break || s->kind == StmtKind::Return) {
        out.push_back(s);
        return out;
      }
      if (s->kind == StmtKind::Continue) {
        append(out, continuation);
        return out;
      }
      if (s->kind == StmtKind::If && jumpsOut(*s)) {
        out.push_back(splitIf(s, rest, continuation, inLoop));
        return out;
      }
      if (s->kind == StmtKind::Block && jumpsOut(*s)) {
        StmtList merged = s->body;
        append(merged, rest);
        append(out, list(merged, continuation, inLoop));
        return out;
      }
      if (isLoop(s->kind))
        s = loop(s);
      else if (s->kind == StmtKind::If || s->kind == StmtKind::Block)
        s = nested(s, inLoop);
      out.push_back(s);
    }
    append(out, continuation);
    return out;
  }

 private:
  static void append(StmtList& to, const StmtList& from) { to.insert(to.end(), from.begin(), from.end()); }

  // An if or block no jump leaves: only the loops inside it need rewriting.
  StmtPtr nested(const StmtPtr& s, bool inLoop) {
    auto copy = std::make_shared<Stmt>(*s);
    copy->body = list(s->body, {}, inLoop);
    copy->elseBody = list(s->elseBody, {}, inLoop);
    return copy;
  }

  // `if (c) A else B; rest` where A or B may jump: rest moves into each branch that can fall
  // through (copied when both can), where the same rewriting continues.
  StmtPtr splitIf(const StmtPtr& s, const StmtList& rest, const StmtList& continuation, bool inLoop) {
    bool thenJumps = alwaysJumps(s->body), elseJumps = alwaysJumps(s->elseBody);
    auto copy = std::make_shared<Stmt>(*s);
    StmtList thenBody = s->body, elseBody = s->elseBody;
    if (!thenJumps) append(thenBody, rest);
    if (!elseJumps) append(elseBody, thenJumps ? rest : clone(rest));
    copy->body = list(thenBody, continuation, inLoop);
    copy->elseBody = list(elseBody, continuation, inLoop);
    return copy;
  }

  StmtPtr loop(const StmtPtr& s) {
    bool jumps = false;
    for (const StmtPtr& c : s->body) jumps |= jumpsOut(*c);
    auto copy = std::make_shared<Stmt>(*s);
    analysis::CountedLoop counted;
    if (!jumps && (s->kind != StmtKind::For || analysis::asCountedLoop(*s, counted))) {
      copy->body = list(s->body, {}, true);
      return copy;
    }
    if (s->kind == StmtKind::DoWhile) {
      // do body while (cond)  ==  while (true) { body; if (!cond) break; }, the test on every path
      // that reaches the end of the iteration or a continue.
      StmtList test{at(ifStmt(unary(Op::Not, s->expr), {at(jump(StmtKind::Break), s->loc)}), s->loc)};
      return at(whileStmt(boolean(true), list(s->body, test, true)), s->loc);
    }
    if (s->kind != StmtKind::For) {
      copy->body = list(s->body, {}, true);
      return copy;
    }
    // for (init; cond; step) body  ==  { init; while (cond) { body; step } }, with the step on
    // every path that reaches the end of the iteration or a continue. Loops that are not
    // counted take this form too: their reverse replays a recorded trip count.
    StmtList step;
    if (s->step) step.push_back(s->step);
    StmtPtr whileLoop = at(whileStmt(s->expr, list(s->body, step, true)), s->loc);
    StmtList scope;
    if (s->init) scope.push_back(s->init);
    scope.push_back(whileLoop);
    return at(block(scope), s->loc);
  }
};

bool returnsInside(const StmtList& body) {
  bool found = false;
  walk(body, [&](const Stmt& s) { found |= s.kind == StmtKind::Return; });
  return found;
}

// Rewrites a return inside a loop as `result = e; returned = true; break;`, followed after each
// loop by `if (returned) break;` in an enclosing loop, or `if (returned) return result;` outside.
// (`body` is a function's, returning `returnType`, or an inlined call's, whose returns carry no
// value.)
class LoopReturnLowering {
 public:
  LoopReturnLowering(StmtList& body, const Type& returnType, NameSet& names)
      : body_(body), returnType_(returnType), names_(names) {}

  void run() {
    if (!hasLoopReturn(body_, false)) return;
    flag_ = var(names_.fresh("returned"), Type::of(Scalar::Bool));
    bool hasValue = returnType_.scalar != Scalar::Void;
    if (hasValue) result_ = var(names_.fresh("result"), returnType_);
    StmtList body = rewrite(body_, false);
    StmtList setup{decl(flag_->text, flag_->type, boolean(false))};
    if (hasValue) setup.push_back(decl(result_->text, result_->type, number(0, result_->type)));
    body.insert(body.begin(), setup.begin(), setup.end());
    body_ = body;
  }

 private:
  StmtList& body_;
  const Type& returnType_;
  NameSet& names_;
  ExprPtr flag_, result_;

  static bool hasLoopReturn(const StmtList& body, bool inLoop) {
    for (const StmtPtr& s : body) {
      if (s->kind == StmtKind::Return && inLoop) return true;
      bool loop = inLoop || isLoop(s->kind);
      if (hasLoopReturn(s->body, loop) || hasLoopReturn(s->elseBody, loop)) return true;
    }
    return false;
  }

  StmtList rewrite(const StmtList& body, bool inLoop) {
    StmtList out;
    for (const StmtPtr& s : body) {
      if (s->kind == StmtKind::Return && inLoop) {
        if (result_) out.push_back(at(assign(result_, Op::Assign, s->expr), s->loc));
        out.push_back(at(assign(flag_, Op::Assign, boolean(true)), s->loc));
        out.push_back(at(jump(StmtKind::Break), s->loc));
        continue;
      }
      auto copy = std::make_shared<Stmt>(*s);
      bool loop = isLoop(s->kind);
      copy->body = rewrite(s->body, inLoop || loop);
      copy->elseBody = rewrite(s->elseBody, inLoop);
      out.push_back(copy);
      if (!loop || !returnsInside(s->body)) continue;
      StmtPtr leave = inLoop ? jump(StmtKind::Break) : ret(result_);
      out.push_back(at(ifStmt(flag_, {at(leave, s->loc)}), s->loc));
    }
    return out;
  }
};

// The returns of a body brought into tail position, where they end it.
StmtList structuredReturns(StmtList body, const Type& returnType, NameSet& names) {
  LoopReturnLowering(body, returnType, names).run();
  return JumpStructurer().list(body, {}, false);
}

// A tail return of an inlined call's body: nothing runs after it in the block, so it goes.
StmtList withoutReturns(const StmtList& body) {
  StmtList out;
  for (const StmtPtr& s : body) {
    if (s->kind == StmtKind::Return) continue;
    auto copy = std::make_shared<Stmt>(*s);
    copy->body = withoutReturns(s->body);
    copy->elseBody = withoutReturns(s->elseBody);
    out.push_back(copy);
  }
  return out;
}

// Each block holding an inlined call's body (innermost first) becomes a plain block: its
// returns, which leave the block, are structured as a function's are and then dropped.
void lowerInlinedCalls(StmtList& body, NameSet& names) {
  for (StmtPtr& s : body) {
    bool inlined = s->kind == StmtKind::Block && s->inlinedCall;
    if (!inlined && s->body.empty() && s->elseBody.empty()) continue;
    auto copy = std::make_shared<Stmt>(*s);
    lowerInlinedCalls(copy->body, names);
    lowerInlinedCalls(copy->elseBody, names);
    if (inlined) {
      copy->body = withoutReturns(structuredReturns(copy->body, Type::of(Scalar::Void), names));
      copy->inlinedCall = false;
    }
    s = copy;
  }
}

}  // namespace

void structureJumps(Function& f) {
  NameSet names(f);
  lowerInlinedCalls(f.body, names);
  f.body = structuredReturns(f.body, f.returnType, names);
}

}  // namespace adjoint::transforms
