#include "transforms/FreshBars.h"

#include <algorithm>
#include <map>

#include "ad/analysis/Activity.h"
#include "ad/ir/Naming.h"
#include "ad/ir/Rewriter.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

// Where a kernel's statements use an adjoint array.
struct Use {
  const Stmt* stmt;
  size_t order;  // the statement's place in the kernel, parents first
  // The loops around it, outermost first, but the loop over the blocks a block runs in turn
  // (transforms/BlocksInTurn.h): it runs each of the forward's blocks once.
  std::vector<const Stmt*> loops;
  ExprPtr index;        // the element's index; null: the array itself (passed on)
  bool target = false;  // the element the statement assigns
  bool zeroes = false;  // a store of zero (or adjoint::zero_lanes at the index's lanes)
};

// The uses of the kernel's adjoint arrays, and where its barriers are.
class Uses {
 public:
  Uses(const Function& d, std::set<std::string> arrays) : arrays_(std::move(arrays)) { visit(d.body); }
  std::map<std::string, std::vector<Use>> of;
  std::vector<Use> barriers;  // (index null)

 private:
  std::set<std::string> arrays_;
  size_t order_ = 0;
  std::vector<const Stmt*> loops_;

  void visit(const StmtList& list) {
    for (const StmtPtr& s : list) visit(*s);
  }
  void visit(const Stmt& s) {
    // A column of a row that data picks, added after the barrier that follows every other
    // addition to the row (adjoint::add_row_pick, add_block_row_pick): a store there before it
    // does not lose it.
    if (s.kind == StmtKind::Eval && s.expr->kind == ExprKind::Call &&
        (s.expr->text == naming::kAddRowPick || s.expr->text == naming::kAddBlockRowPick))
      return;
    size_t order = order_++;
    bool loop = isLoop(s.kind) && !(s.init && s.init->kind == StmtKind::Decl && s.init->name == naming::kVirtualBlock);
    if (loop) loops_.push_back(&s);
    if (!zeroLanes(s, order))
      for (const ExprPtr& e : {s.lhs, s.expr}) exprs(e, s, order);
    for (const ExprPtr& e : s.args) exprs(e, s, order);
    for (const StmtPtr& c : {s.init, s.step})
      if (c) visit(*c);
    visit(s.body);
    visit(s.elseBody);
    if (loop) loops_.pop_back();
  }
  // adjoint::zero_lanes<N>(y_bar + k): the seeds of N lanes zeroed (transforms/VectorLanes.h).
  bool zeroLanes(const Stmt& s, size_t order) {
    if (s.kind != StmtKind::Eval || s.expr->kind != ExprKind::Call || s.expr->text.rfind("adjoint::zero_lanes", 0) ||
        s.expr->operands.size() != 1 || !isOp(*s.expr->operands[0], Op::Add))
      return false;
    const ExprPtr& array = s.expr->operands[0]->operands[0];
    if (array->kind != ExprKind::Var || !arrays_.count(array->text)) return false;
    of[array->text].push_back({&s, order, loops_, s.expr->operands[0]->operands[1], true, true});
    return true;
  }
  void exprs(const ExprPtr& e, const Stmt& s, size_t order) {
    if (!e) return;
    if (isBarrier(*e)) barriers.push_back({&s, order, loops_, nullptr});
    if (e->kind == ExprKind::Index && e->operands[0]->kind == ExprKind::Var && arrays_.count(e->operands[0]->text)) {
      bool target = s.kind == StmtKind::Assign && e == s.lhs;
      bool zeroes = target && s.op == Op::Assign && !s.atomic && isZero(s.expr);
      of[e->operands[0]->text].push_back({&s, order, loops_, e->operands[1], target, zeroes});
      return exprs(e->operands[1], s, order);
    }
    if (e->kind == ExprKind::Var && arrays_.count(e->text)) of[e->text].push_back({&s, order, loops_, nullptr});
    for (const ExprPtr& o : e->operands) exprs(o, s, order);
  }
};

// The terms of a sum (a + b + c), casts left off.
void terms(const ExprPtr& e, std::vector<ExprPtr>& out) {
  const Expr& bare = stripCasts(*e);
  if (isOp(bare, Op::Add))
    for (const ExprPtr& o : bare.operands) terms(o, out);
  else
    out.push_back(e);
}

// counter or k * counter, k an integer literal other than 0.
bool counterTerm(const Expr& term, const std::string& counter) {
  const Expr& e = stripCasts(term);
  if (e.kind == ExprKind::Var) return e.text == counter;
  if (!isOp(e, Op::Mul)) return false;
  for (int k = 0; k < 2; ++k) {
    const Expr& factor = stripCasts(*e.operands[k]);
    if (factor.kind == ExprKind::Number && factor.value != 0 && counterTerm(*e.operands[1 - k], counter)) return true;
  }
  return false;
}

// Whether `index` has another value in each iteration of `loop`: a sum of the loop's counter
// (times a literal) and terms that read neither it nor anything else the loop assigns, the
// counter changed by the loop's step alone, by the same amount each time (counter += s or -= s,
// s invariant), under a condition that reads it.
bool steppedBy(const ExprPtr& index, const Stmt& loop) {
  if (loop.kind != StmtKind::For || !loop.init || loop.init->kind != StmtKind::Decl || !loop.step) return false;
  const std::string& counter = loop.init->name;
  std::set<std::string> assigned = analysis::assignedVariables(loop.body);
  const Stmt& step = *loop.step;
  if (assigned.count(counter) || step.kind != StmtKind::Assign || (step.op != Op::Add && step.op != Op::Sub) ||
      step.lhs->kind != ExprKind::Var || step.lhs->text != counter || !loop.expr || !reads(loop.expr, counter))
    return false;
  for (const std::string& v : analysis::readVariables(step.expr))
    if (v == counter || assigned.count(v)) return false;
  std::vector<ExprPtr> parts;
  terms(index, parts);
  int counters = 0;
  for (const ExprPtr& t : parts) {
    if (counterTerm(*t, counter)) {
      ++counters;
      continue;
    }
    for (const std::string& v : analysis::readVariables(t))
      if (v == counter || assigned.count(v)) return false;
  }
  return counters == 1;
}

// Whether the kernel never assigns the variables `e` reads but where it declares them, once each.
bool fixedOnceSet(const ExprPtr& e, const Function& d) {
  std::set<std::string> vars = analysis::readVariables(e);
  std::map<std::string, int> declared;
  bool ok = true;
  walk(d.body, [&](const Stmt& s) {
    if (s.kind == StmtKind::Decl) ++declared[s.name];
    if (s.kind == StmtKind::Assign)
      for (const std::string& v : analysis::assignedVariables(s)) ok &= !vars.count(v);
  });
  for (const std::string& v : vars) ok &= declared[v] <= 1;
  return ok;
}

// Whether each element of the input's adjoint gets one addition in the launch, in its thread's
// own element (ParallelAdjoints' plain +=): then a zero it holds may be overwritten instead.
bool addedOnce(const std::vector<Use>& uses, const Function& d) {
  for (const Use& u : uses)
    if (!u.target || u.zeroes || u.stmt->atomic || (u.stmt->op != Op::Add && u.stmt->op != Op::Sub)) return false;
  if (uses.size() == 1)
    return std::all_of(uses[0].loops.begin(), uses[0].loops.end(),
                       [&](const Stmt* loop) { return steppedBy(uses[0].index, *loop); });
  // Lanes of one index, r + k for distinct literals k, r fixed once set, in no loop.
  const Expr& rest = *literalOffset(*uses[0].index).first;
  std::set<double> lanes;
  for (const Use& u : uses) {
    auto [r, k] = literalOffset(*u.index);
    if (!u.loops.empty() || !sameExpr(*r, rest) || !lanes.insert(k).second) return false;
  }
  return fixedOnceSet(uses[0].index, d);
}

// Whether the seed zeroing `z` is the last the kernel does with the element: no use of the array
// after it but other zeroings, and in each loop around it only this element, at an index the
// loop's counter steps, and no barrier (after which another thread may read the element in a
// later iteration). A thread that reads it before, in program order, and runs later without a
// barrier between would race with the zeroing in either mode.
bool lastUse(const Use& z, const std::vector<Use>& uses, const std::vector<Use>& barriers) {
  if (z.stmt->kind == StmtKind::Eval && !z.loops.empty()) return false;  // lanes: outside loops only
  for (const Use& b : barriers)
    for (const Stmt* loop : z.loops)
      if (std::find(b.loops.begin(), b.loops.end(), loop) != b.loops.end()) return false;
  for (const Use& u : uses) {
    if (u.order > z.order && !u.zeroes) return false;
    for (const Stmt* loop : z.loops)
      if (std::find(u.loops.begin(), u.loops.end(), loop) != u.loops.end() &&
          (!u.index || !sameExpr(*u.index, *z.index) || !steppedBy(z.index, *loop)))
        return false;
  }
  return true;
}

// Puts each run of the chosen statements under a branch on fresh_bars.
class FreshBranches : public Rewriter {
 public:
  FreshBranches(const std::set<const Stmt*>& stored, const std::set<const Stmt*>& kept)
      : stored_(stored), kept_(kept) {}

 private:
  const std::set<const Stmt*>& stored_;
  const std::set<const Stmt*>& kept_;

  void rewriteList(StmtList& body) override {
    StmtList out;
    for (size_t k = 0; k < body.size();) {
      const std::set<const Stmt*>* chosen = stored_.count(body[k].get()) ? &stored_
                                            : kept_.count(body[k].get()) ? &kept_
                                                                         : nullptr;
      if (!chosen) {
        out.push_back(body[k++]);
        continue;
      }
      StmtList run;
      while (k < body.size() && chosen->count(body[k].get())) run.push_back(body[k++]);
      out.push_back(chosen == &stored_ ? storedWhenFresh(run) : zeroedUnlessFresh(run));
    }
    body = out;
  }

  static ExprPtr fresh() { return var(naming::kFreshBars, Type::of(Scalar::Bool)); }

  // if (fresh_bars) { x_bar[i] = e; } else { x_bar[i] += e; }
  static StmtPtr storedWhenFresh(StmtList adds) {
    StmtList stores;
    for (const StmtPtr& a : adds)
      stores.push_back(assign(a->lhs, Op::Assign, a->op == Op::Sub ? neg(a->expr) : a->expr));
    std::string comment = adds[0]->comment;
    adds[0]->comment.clear();
    StmtPtr s = ifStmt(fresh(), stores, adds);
    s->comment = (comment.empty() ? "" : comment + "\n") +
                 "adjoint::Bars::fresh: the caller's adjoint holds zero there, and no other addition reaches it";
    return s;
  }

  // if (!fresh_bars) { y_bar[i] = 0.0f; }
  static StmtPtr zeroedUnlessFresh(StmtList zeroings) {
    std::string comment = zeroings[0]->comment;
    zeroings[0]->comment.clear();
    StmtPtr s = ifStmt(unary(Op::Not, fresh()), zeroings);
    s->comment = (comment.empty() ? "" : comment + "\n") +
                 "adjoint::Bars::fresh: the overwritten value's adjoint is not wanted; nothing after reads it";
    return s;
  }
};

}  // namespace

void allowFreshBars(Function& d, const Function& primal) {
  std::set<std::string> arrays, inputs;
  std::set<std::string> written = analysis::writtenVariables(primal.body);
  for (const Param& p : d.params)
    if (p.role == Role::Adjoint && p.type.pointer) {
      arrays.insert(p.name);
      const Param* of = primal.param(p.of);
      if (of && of->type.pointer && !written.count(of->name)) inputs.insert(p.name);
    }
  Uses uses(d, arrays);
  std::set<const Stmt*> stored, kept;
  for (const auto& [array, list] : uses.of) {
    if (inputs.count(array) && addedOnce(list, d)) {
      for (const Use& u : list) stored.insert(u.stmt);
      d.storedWhenFresh.insert(array);
    }
    for (const Use& u : list)
      if (u.zeroes && lastUse(u, list, uses.barriers)) {
        kept.insert(u.stmt);
        d.seedsKeptWhenFresh.insert(array);
      }
  }
  if (stored.empty() && kept.empty()) return;
  FreshBranches(stored, kept).rewrite(d.body);
}

}  // namespace adjoint::transforms
