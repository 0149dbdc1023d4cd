#include "transforms/ZeroedAdjoints.h"

#include <algorithm>
#include <set>

#include "ad/analysis/Activity.h"
#include "ad/ir/Naming.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

using Zeros = std::set<std::string>;  // the local adjoints known to hold zero

Zeros intersection(const Zeros& a, const Zeros& b) {
  Zeros out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}

// Whether a break or continue inside `body` leaves the loop whose body it is.
bool jumpsFromBody(const StmtList& body) {
  return std::any_of(body.begin(), body.end(), [](const StmtPtr& s) {
    if (s->kind == StmtKind::Break || s->kind == StmtKind::Continue) return true;
    return !isLoop(s->kind) && (jumpsFromBody(s->body) || jumpsFromBody(s->elseBody));
  });
}

// A forward data-flow over the structured IR: which local scalar adjoints hold zero before each
// statement, and where one does, its accumulation stored instead.
class ZeroFlow {
 public:
  explicit ZeroFlow(const Function& f) {
    std::set<std::string> addressed;
    walkExprs(f.body, [&](const Expr& e) {
      if (isOp(e, Op::AddressOf)) addressed.insert(rootName(*e.operands[0]));
    });
    walk(f.body, [&](const Stmt& s) {
      bool scalar =
          s.kind == StmtKind::Decl && s.type.isFloating() && !s.type.isIndexed() && !s.type.pointer && !s.type.shared;
      if (scalar && naming::isAdjoint(s.name) && !addressed.count(s.name)) tracked_.insert(s.name);
    });
  }

  const std::set<std::string>& tracked() const { return tracked_; }

  // Runs `list` from the zeros `in`; returns the zeros after it. With `rewrite`, stores what it can.
  Zeros run(StmtList& list, Zeros zeros, bool rewrite) {
    for (StmtPtr& s : list) zeros = statement(*s, std::move(zeros), rewrite);
    return zeros;
  }

 private:
  std::set<std::string> tracked_;

  Zeros statement(Stmt& s, Zeros zeros, bool rewrite) {
    switch (s.kind) {
      case StmtKind::Decl:
        if (tracked_.count(s.name) && s.expr && isZero(s.expr))
          zeros.insert(s.name);
        else
          zeros.erase(s.name);
        return zeros;
      case StmtKind::Assign:
        assignment(s, zeros, rewrite);
        return zeros;
      case StmtKind::Block:
        return run(s.body, std::move(zeros), rewrite);
      case StmtKind::If: {
        Zeros otherwise = run(s.elseBody, zeros, rewrite);
        return intersection(run(s.body, std::move(zeros), rewrite), otherwise);
      }
      case StmtKind::For:
      case StmtKind::While:
      case StmtKind::DoWhile:
        return loop(s, std::move(zeros), rewrite);
      default:
        return zeros;
    }
  }

  void assignment(Stmt& s, Zeros& zeros, bool rewrite) {
    if (s.lhs->kind != ExprKind::Var || !tracked_.count(s.lhs->text)) return;
    const std::string& v = s.lhs->text;
    if (!s.atomic && s.op == Op::Assign && isZero(s.expr)) {
      zeros.insert(v);
      return;
    }
    // x_bar = 0; ... x_bar += e  is  x_bar = e  (and x_bar -= e is x_bar = -e).
    bool accumulates = !s.atomic && (s.op == Op::Add || s.op == Op::Sub) && !reads(s.expr, v);
    if (accumulates && zeros.count(v) && rewrite) {
      if (s.op == Op::Sub) s.expr = neg(s.expr);
      s.op = Op::Assign;
    }
    zeros.erase(v);
  }

  // What holds zero at the top of every iteration: what holds it before the loop and still after
  // each iteration, found by iterating to the fixed point (the sets only shrink). The loop leaves
  // from its condition, where that holds, or from a jump in its body, where only what the loop
  // never writes is known.
  Zeros loop(Stmt& s, Zeros zeros, bool rewrite) {
    if (s.init) zeros = statement(*s.init, std::move(zeros), false);
    if (jumpsFromBody(s.body)) {
      for (const std::string& v : analysis::assignedVariables(s.body)) zeros.erase(v);
    } else {
      for (;;) {
        Zeros after = run(s.body, zeros, false);
        if (s.step) after = statement(*s.step, std::move(after), false);
        Zeros top = intersection(zeros, after);
        if (top == zeros) break;
        zeros = std::move(top);
      }
    }
    run(s.body, zeros, rewrite);
    return zeros;
  }
};

using Live = std::set<std::string>;  // the variables a later statement may read before writing them

// What `s` and the statements nested in it read; assigning a variable is no read of it.
Live readsOf(const Stmt& s) {
  Live out;
  walkExprs(StmtList{std::make_shared<Stmt>(s)}, [&](const Expr& e) {
    if (e.kind == ExprKind::Var) out.insert(e.text);
  });
  if (s.kind == StmtKind::Assign && s.lhs->kind == ExprKind::Var && !reads(s.expr, s.lhs->text)) out.erase(s.lhs->text);
  return out;
}

// The backward data-flow that follows: which tracked adjoints a later statement reads, and the
// zeroings that none reads removed (after `x_bar = e` stores, the zeroing at the end of a reverse
// iteration is overwritten before anything reads it).
class Liveness {
 public:
  explicit Liveness(std::set<std::string> tracked) : tracked_(std::move(tracked)) {}

  // Returns what is live before `list`, given what is live after it; with `rewrite`, removes
  // dead zeroings.
  Live run(StmtList& list, Live live, bool rewrite) {
    for (size_t k = list.size(); k-- > 0;) {
      if (rewrite && isDeadZeroing(*list[k], live)) {
        list.erase(list.begin() + static_cast<long>(k));
        continue;
      }
      live = statement(*list[k], std::move(live), rewrite);
    }
    return live;
  }

 private:
  std::set<std::string> tracked_;

  bool isDeadZeroing(const Stmt& s, const Live& live) const {
    return s.kind == StmtKind::Assign && s.op == Op::Assign && !s.atomic && s.lhs->kind == ExprKind::Var &&
           tracked_.count(s.lhs->text) && !live.count(s.lhs->text) && isZero(s.expr) && s.comment.empty() &&
           s.section == Section::None;
  }

  Live statement(Stmt& s, Live live, bool rewrite) {
    switch (s.kind) {
      case StmtKind::Decl:
      case StmtKind::Assign: {
        bool overwrites = s.kind == StmtKind::Decl || (s.op == Op::Assign && s.lhs->kind == ExprKind::Var);
        if (overwrites) live.erase(s.kind == StmtKind::Decl ? s.name : s.lhs->text);
        live.merge(readsOf(s));
        if (s.kind == StmtKind::Assign && s.op != Op::Assign) live.insert(rootName(*s.lhs));
        return live;
      }
      case StmtKind::Block:
        return run(s.body, std::move(live), rewrite);
      case StmtKind::If: {
        Live otherwise = run(s.elseBody, live, rewrite);
        live = run(s.body, std::move(live), rewrite);
        live.merge(otherwise);
        live.merge(analysis::readVariables(s.expr));
        return live;
      }
      case StmtKind::For:
      case StmtKind::While:
      case StmtKind::DoWhile:
        return loop(s, std::move(live), rewrite);
      default:
        live.merge(readsOf(s));
        return live;
    }
  }

  // What is live at the top of the loop: what its condition reads, what is live after it, and
  // what an iteration reads before writing, given what is live at the top (a fixed point, the
  // sets only grow). With a jump in the body, all the loop reads stays live everywhere in it.
  Live loop(Stmt& s, Live live, bool rewrite) {
    Live top = std::move(live);
    top.merge(analysis::readVariables(s.expr));
    if (jumpsFromBody(s.body)) {
      top.merge(readsOf(s));
    } else {
      for (;;) {
        Live iteration = s.step ? statement(*s.step, top, false) : top;
        iteration = run(s.body, std::move(iteration), false);
        iteration.insert(top.begin(), top.end());
        if (iteration == top) break;
        top = std::move(iteration);
      }
      Live afterBody = s.step ? statement(*s.step, top, false) : top;
      run(s.body, std::move(afterBody), rewrite);
    }
    return s.init ? statement(*s.init, std::move(top), false) : top;
  }
};

}  // namespace

void storeIntoZeroedAdjoints(Function& f) {
  ZeroFlow zeros(f);
  zeros.run(f.body, {}, true);
  Liveness(zeros.tracked()).run(f.body, {}, true);
}

}  // namespace adjoint::transforms
