#include "transforms/DeadCode.h"

#include <set>

#include "ad/ir/Rewriter.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

class DeadCode : public Rewriter {
 public:
  DeadCode(const Function& f, const Module* m) : f_(f), m_(m) {}

  // One round; returns whether something was removed.
  bool run(StmtList& body) {
    read_.clear();
    collectReads(body);
    unread_.clear();
    findUnreadLocals(body);
    changed_ = false;
    rewrite(body);
    return changed_;
  }

 private:
  const Function& f_;
  const Module* m_;
  std::set<std::string> read_;
  std::set<const Stmt*> unread_;  // locals nothing in their scope reads: their declarations and assignments
  bool changed_ = false;

  // A local that its scope (the statements after its declaration) only assigns, with values of
  // no other effect, is dead with those assignments, even where another scope reads a local of
  // the same name (the reverse sweep's recomputed copy of a forward sweep's local).
  void findUnreadLocals(const StmtList& list) {
    for (size_t k = 0; k < list.size(); ++k) {
      const Stmt& d = *list[k];
      findUnreadLocals(d.body);
      findUnreadLocals(d.elseBody);
      if (d.kind != StmtKind::Decl || d.type.tape || d.type.scalar == Scalar::Opaque || !initializedPurely(d)) continue;
      bool read = false;
      std::vector<const Stmt*> writes;
      auto mentions = [&](const ExprPtr& e) {
        bool found = false;
        walk(e, [&](const Expr& x) { found |= x.kind == ExprKind::Var && x.text == d.name; });
        return found;
      };
      walk(StmtList(list.begin() + static_cast<long>(k) + 1, list.end()), [&](const Stmt& x) {
        if (x.kind == StmtKind::Assign && x.lhs->kind == ExprKind::Var && x.lhs->text == d.name) {
          writes.push_back(&x);
          read |= !pure(x.expr);  // (kept, and so is the local it assigns)
          return;
        }
        read |= (x.kind == StmtKind::Decl && x.name == d.name) || mentions(x.expr) || mentions(x.lhs);
        for (const ExprPtr& a : x.args) read |= mentions(a);
      });
      if (read) continue;
      unread_.insert(&d);
      unread_.insert(writes.begin(), writes.end());
    }
  }

  void collectReads(const StmtList& body) {
    walk(body, [&](const Stmt& s) {
      for (const ExprPtr& e : {s.expr}) noteReads(e);
      for (const ExprPtr& e : s.args) noteReads(e);
      if (s.lhs) {
        // Writing x or a[i] is no read of x or a, but i is read.
        for (const Expr* e = s.lhs.get(); e->kind == ExprKind::Index; e = e->operands[0].get())
          noteReads(e->operands[1]);
        if (s.lhs->kind == ExprKind::Unary) noteReads(s.lhs);
      }
    });
  }

  void noteReads(const ExprPtr& e) {
    walk(e, [&](const Expr& x) {
      if (x.kind == ExprKind::Var) read_.insert(x.text);
    });
  }

  // Whether evaluating e has no effect beyond its value. Functions of the program and generated
  // derivatives can write only through pointers they are given (globals are rejected): a call is
  // pure when no argument reaches a writable pointer parameter. Functions with rules are pure.
  bool pure(const ExprPtr& e) const {
    bool ok = true;
    walk(e, [&](const Expr& x) {
      if (x.kind == ExprKind::Pop || x.kind == ExprKind::Verbatim)
        ok = false;  // takes a value off its tape; the program's own code
      if (x.kind != ExprKind::Call || (m_ && m_->isPureCall(x))) return;
      const Function* callee = m_ ? m_->find(x.text) : nullptr;
      for (size_t i = 0; i < x.operands.size(); ++i) {
        const ExprPtr& arg = x.operands[i];
        bool address = isOp(*arg, Op::AddressOf);
        bool pointer = arg->type.isIndexed() || arg->type.scalar == Scalar::Opaque;
        bool readOnly = callee && i < callee->params.size() && callee->params[i].type.pointer &&
                        callee->params[i].type.constPointee;
        ok &= !address && (!pointer || readOnly);
      }
    });
    return ok;
  }

  // Whether a declaration's initializer (its value, or an array's elements) has no effect.
  bool initializedPurely(const Stmt& d) const {
    bool ok = !d.expr || pure(d.expr);
    for (const ExprPtr& a : d.args) ok &= pure(a);
    return ok;
  }

  // Whether `name` is read by the statements after position k of `body`, the declaration's scope.
  static bool readLater(const StmtList& body, size_t k, const std::string& name) {
    bool found = false;
    StmtList rest(body.begin() + static_cast<long>(k) + 1, body.end());
    walkExprs(rest, [&](const Expr& e) { found |= e.kind == ExprKind::Var && e.text == name; });
    return found;
  }

  bool dead(const Stmt& s, const StmtList& body, size_t k) const {
    switch (s.kind) {
      case StmtKind::Decl: {
        bool kept = s.type.scalar == Scalar::Opaque || s.type.tape;  // handles and tapes are declared for their effects
        return initializedPurely(s) && !kept &&
               (!read_.count(s.name) || !readLater(body, k, s.name) || unread_.count(&s));
      }
      case StmtKind::Assign: {
        // A parameter passed by value is a local too; one behind a pointer is the caller's.
        const std::string& v = rootName(*s.lhs);
        const Param* p = f_.param(v);
        bool local = !p || (!p->type.pointer && s.lhs->kind == ExprKind::Var);
        return (local && !read_.count(v) && pure(s.expr)) || unread_.count(&s);
      }
      case StmtKind::If:
        return s.body.empty() && s.elseBody.empty() && pure(s.expr);
      case StmtKind::For:
        return s.body.empty();
      default:
        return false;
    }
  }

  void rewriteList(StmtList& body) override {
    StmtList out;
    // Of removed statements: their comment moves to the next statement kept, when that has none;
    // their section heading too, unless the next statement kept begins a section itself (then the
    // removed section was empty).
    std::string orphanComment;
    Section orphanSection = Section::None;
    for (size_t k = 0; k < body.size(); ++k) {
      const StmtPtr& s = body[k];
      if (dead(*s, body, k)) {
        changed_ = true;
        if (!s->comment.empty()) orphanComment = s->comment;
        if (s->section != Section::None) orphanSection = s->section;
        continue;
      }
      if (s->kind == StmtKind::If && s->body.empty() && !s->elseBody.empty()) {
        s->expr = unary(Op::Not, s->expr);
        std::swap(s->body, s->elseBody);
      }
      if (!orphanComment.empty() && s->comment.empty()) s->comment = orphanComment;
      if (s->section == Section::None) s->section = orphanSection;
      orphanComment.clear();
      orphanSection = Section::None;
      out.push_back(s);
    }
    body = std::move(out);
  }
};

}  // namespace

void removeDeadCode(Function& f, const Module* m) {
  DeadCode dce(f, m);
  while (dce.run(f.body)) {
  }
}

}  // namespace adjoint::transforms
