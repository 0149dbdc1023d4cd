#include "transforms/RunningExtremes.h"

#include <optional>

#include "ad/analysis/Activity.h"
#include "ad/ir/Names.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

bool isVar(const Expr& e, const std::string& name) { return e.kind == ExprKind::Var && e.text == name; }

// A running extreme found in a loop's body: `target = fmax(target, value)` (or its if form), and
// when the iteration raises it.
struct Extreme {
  size_t position;  // of the statement in the loop's body
  ExprPtr target;   // m
  ExprPtr value;    // e
  ExprPtr raised;   // over m: the condition under which the iteration sets m to e
  bool maximum;
};

// The condition that `if (raised) m = e` agrees with m = fmax(m, e) (fmin) on, ties included:
// fmax's partial in its first argument is 1 where x > y (adjoint/rules.h: a tie goes to y).
ExprPtr raisedByCall(const Expr& call, const ExprPtr& m, size_t valueArg) {
  bool max = call.text == "std::fmax";
  Op keeps = max ? Op::Gt : Op::Lt;
  const ExprPtr& e = call.operands[valueArg];
  if (valueArg == 1) return unary(Op::Not, binary(keeps, m, e));  // fmax(m, e): m kept where m > e
  return binary(keeps, e, m);                                     // fmax(e, m): e taken where e > m
}

std::optional<Extreme> extremeAt(const StmtList& body, size_t k) {
  const Stmt& s = *body[k];
  if (s.kind == StmtKind::Assign && s.op == Op::Assign && s.lhs->kind == ExprKind::Var && s.lhs->type.isFloating() &&
      s.expr->kind == ExprKind::Call && (s.expr->text == "std::fmax" || s.expr->text == "std::fmin") &&
      s.expr->operands.size() == 2) {
    const std::string& m = s.lhs->text;
    for (size_t arg : {size_t{1}, size_t{0}})
      if (isVar(*s.expr->operands[1 - arg], m) && !analysis::readVariables(s.expr->operands[arg]).count(m))
        return Extreme{k, s.lhs, s.expr->operands[arg], raisedByCall(*s.expr, s.lhs, arg), s.expr->text == "std::fmax"};
    return std::nullopt;
  }
  // if (e > m) m = e;  (or >=, <, <=, either way round)
  if (s.kind != StmtKind::If || !s.elseBody.empty() || s.body.size() != 1) return std::nullopt;
  const Stmt& set = *s.body[0];
  const Expr& cond = *s.expr;
  bool compares = cond.kind == ExprKind::Binary &&
                  (cond.op == Op::Gt || cond.op == Op::Ge || cond.op == Op::Lt || cond.op == Op::Le);
  if (!compares || set.kind != StmtKind::Assign || set.op != Op::Assign || set.lhs->kind != ExprKind::Var ||
      !set.lhs->type.isFloating())
    return std::nullopt;
  const std::string& m = set.lhs->text;
  bool valueFirst = isVar(*cond.operands[1], m) && sameExpr(*cond.operands[0], *set.expr);
  bool targetFirst = isVar(*cond.operands[0], m) && sameExpr(*cond.operands[1], *set.expr);
  if (!(valueFirst || targetFirst) || analysis::readVariables(set.expr).count(m)) return std::nullopt;
  bool greater = cond.op == Op::Gt || cond.op == Op::Ge;
  return Extreme{k, set.lhs, set.expr, s.expr, greater == valueFirst};
}

// Whether e can be evaluated again after the loop at a chosen iteration: it reads the counter
// and what the loop does not change, and calls nothing but pure functions.
bool replayable(const ExprPtr& e, const std::set<std::string>& changed, const Module& m) {
  bool ok = true;
  walk(e, [&](const Expr& x) {
    if (x.kind == ExprKind::Var && changed.count(x.text)) ok = false;
    if (x.kind == ExprKind::Call && !m.isPureCall(x)) ok = false;
  });
  return ok;
}

class ExtremeTracker {
 public:
  ExtremeTracker(Function& f, const Module& m) : module_(m), names_(f) {}

  void rewriteOutsideLoops(StmtList& list) {
    for (size_t i = 0; i < list.size(); ++i) {
      Stmt& s = *list[i];
      if (s.kind == StmtKind::For) {
        StmtList before, after;
        track(s, before, after);
        list.insert(list.begin() + static_cast<long>(i) + 1, after.begin(), after.end());
        list.insert(list.begin() + static_cast<long>(i), before.begin(), before.end());
        i += before.size() + after.size();
      } else if (s.kind == StmtKind::If || s.kind == StmtKind::Block) {
        rewriteOutsideLoops(s.body);
        rewriteOutsideLoops(s.elseBody);
      }
    }
  }

 private:
  const Module& module_;
  NameSet names_;

  void track(Stmt& loop, StmtList& before, StmtList& after) {
    if (!loop.init || loop.init->kind != StmtKind::Decl || loop.init->type.scalar != Scalar::Int) return;
    const std::string& counter = loop.init->name;
    std::set<std::string> changed = analysis::assignedVariables(loop.body);
    if (changed.count(counter)) return;
    for (size_t k = 0; k < loop.body.size(); ++k) {
      std::optional<Extreme> x = extremeAt(loop.body, k);
      if (!x || !onlyUse(loop, *x) || !replayable(x->value, changed, module_)) continue;
      rewrite(loop, *x, before, after);
    }
  }

  // Whether the loop reads and writes m nowhere but in the extreme's statement.
  static bool onlyUse(const Stmt& loop, const Extreme& x) {
    const std::string& m = x.target->text;
    for (size_t k = 0; k < loop.body.size(); ++k) {
      if (k == x.position) continue;
      const StmtList one{loop.body[k]};
      if (analysis::readVariables(one).count(m) || analysis::assignedVariables(one).count(m)) return false;
    }
    return !analysis::readVariables(loop.expr).count(m) &&
           (!loop.step || !analysis::readVariables(StmtList{loop.step}).count(m));
  }

  void rewrite(Stmt& loop, const Extreme& x, StmtList& before, StmtList& after) {
    const std::string& m = x.target->text;
    const Type& t = x.target->type;
    const Type& k = loop.init->type;
    ExprPtr running = var(names_.fresh(m + "_running"), t);
    ExprPtr raised = var(names_.fresh(m + "_raised"), Type::of(Scalar::Bool));
    ExprPtr iteration = var(names_.fresh(m + "_at"), k);
    SourceLoc where = loop.body[x.position]->loc;
    StmtPtr first = at(decl(running->text, t, x.target), where);
    first->passive = true;
    first->comment = "the running " + std::string(x.maximum ? "maximum" : "minimum") + " of line " +
                     std::to_string(where.line) + ", tracked apart:\n" + m +
                     " takes the value (and derivative) of the iteration that last set it";
    before.push_back(first);
    before.push_back(at(decl(raised->text, raised->type, boolean(false)), where));
    before.push_back(at(decl(iteration->text, k, number(0, k)), where));
    auto onRunning = [&](const ExprPtr& e) {
      return substitute(e, [&](const Expr& v) { return v.text == m ? running : nullptr; });
    };
    StmtList set{at(assign(running, Op::Assign, x.value), where), at(assign(raised, Op::Assign, boolean(true)), where),
                 at(assign(iteration, Op::Assign, var(loop.init->name, k)), where)};
    StmtPtr replaced = at(ifStmt(onRunning(x.raised), set), where);
    replaced->passive = true;
    for (const StmtPtr& s : set) s->passive = true;
    replaced->comment = loop.body[x.position]->comment;
    loop.body[x.position] = replaced;
    ExprPtr won = substitute(x.value, [&](const Expr& v) { return v.text == loop.init->name ? iteration : nullptr; });
    after.push_back(at(ifStmt(raised, {at(assign(x.target, Op::Assign, won), where)}), where));
  }
};

}  // namespace

void trackRunningExtremes(Function& f, const Module& m) {
  if (f.kernel || f.device) ExtremeTracker(f, m).rewriteOutsideLoops(f.body);
}

}  // namespace adjoint::transforms
