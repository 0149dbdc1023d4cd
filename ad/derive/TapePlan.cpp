#include "ad/derive/TapePlan.h"

#include <vector>

#include "ad/analysis/Activity.h"
#include "ad/analysis/Loops.h"

namespace adjoint::derive {

using namespace ir;

namespace {

// Whether `s` overwrites a value (an assignment, or a declaration run once per loop iteration).
bool isOverwrite(const Stmt& s, bool inLoop) {
  return (s.kind == StmtKind::Assign && !s.firstWrite) ||
         (s.kind == StmtKind::Decl && inLoop && (s.expr || !s.args.empty()));
}

using Names = std::set<std::string>;

// Whether an if's body changes what its condition reads: a variable the body assigns, an
// element of an array the condition indexes, or the size of a vector it grows or shrinks
// (`if (v.size() < 3) v.push_back(e)`). A pointer tested against null (`bias != nullptr`) is not
// changed by the stores through it.
bool changesItsCondition(const Stmt& branch) {
  Names values, arrays;
  walk(branch.expr, [&](const Expr& x) {
    if (x.kind == ExprKind::Index) arrays.insert(rootName(x));
  });
  walk(branch.expr, [&](const Expr& x) {
    if (x.kind == ExprKind::Var && !arrays.count(x.text)) values.insert(x.text);
  });
  bool changed = false;
  auto check = [&](const Stmt& s) {
    if (s.kind == StmtKind::Eval && isResize(*s.expr)) changed |= values.count(rootName(*s.expr->operands[0])) > 0;
    if (s.kind != StmtKind::Assign && s.kind != StmtKind::Decl) return;
    std::string v = s.kind == StmtKind::Decl ? s.name : rootName(*s.lhs);
    bool whole = s.kind == StmtKind::Decl || s.lhs->kind == ExprKind::Var;
    changed |= arrays.count(v) || (whole && values.count(v));
  };
  walk(branch.body, check);
  walk(branch.elseBody, check);
  return changed;
}

std::set<std::string> indexReads(const Expr& lvalue) {
  std::set<std::string> names;
  const Expr* e = &lvalue;
  while (e->kind == ExprKind::Index) {
    names.merge(analysis::readVariables(e->operands[1]));
    e = e->operands[0].get();
  }
  return names;
}

std::string overwrittenName(const Stmt& s) { return s.kind == StmtKind::Decl ? s.name : rootName(*s.lhs); }

// A forward dataflow over the structured body. The state at a point holds the variables that
// some statement before it reads in its reverse, with no overwrite of the variable in between:
// an overwrite of such a variable must restore it.
class ExposedReads {
 public:
  ExposedReads(TapePlan& plan, const std::function<Names(const Stmt&)>& reverseReads, const TapeRequests& requests)
      : plan_(plan), reverseReads_(reverseReads), requests_(requests) {}

  // Returns whether a new restore was found.
  bool run(const StmtList& body) {
    size_t before = plan_.restored.size();
    flowList(body, {}, false);
    return plan_.restored.size() != before;
  }

 private:
  TapePlan& plan_;
  const std::function<Names(const Stmt&)>& reverseReads_;
  const TapeRequests& requests_;
  std::vector<Names> breaks_;  // states at the breaks of the innermost loop

  // The reads of `s`'s reverse of values before `s`.
  Names readsOf(const Stmt& s) {
    Names r = reverseReads_(s);
    if (plan_.restored.count(&s) && s.kind == StmtKind::Assign) r.merge(indexReads(*s.lhs));
    if (auto after = requests_.readsAfter.find(&s); after != requests_.readsAfter.end()) r.erase(after->second);
    return r;
  }

  // After `s`, what its reverse reads of the value it assigned.
  Names withReadAfter(const Stmt& s, Names state) {
    if (auto after = requests_.readsAfter.find(&s); after != requests_.readsAfter.end()) state.insert(after->second);
    return state;
  }

  Names flowList(const StmtList& body, Names state, bool inLoop) {
    for (const StmtPtr& s : body) state = flow(*s, std::move(state), inLoop);
    return state;
  }

  Names flow(const Stmt& s, Names state, bool inLoop) {
    if (inLoop) plan_.inLoop.insert(&s);
    switch (s.kind) {
      case StmtKind::If: {
        if (!plan_.tapedBranch.count(&s) && !s.passive) state.merge(readsOf(s));
        Names a = flowList(s.body, state, inLoop);
        a.merge(flowList(s.elseBody, state, inLoop));
        return a;
      }
      case StmtKind::For:
      case StmtKind::While:
      case StmtKind::DoWhile:
        return flowLoop(s, std::move(state));
      case StmtKind::Break:
        breaks_.push_back(state);
        return {};
      default:
        break;
    }
    Names reads = readsOf(s);
    if (plan_.recomputed.count(&s)) reads.merge(analysis::readVariables(s.expr));
    if (!isOverwrite(s, inLoop) || s.passive || plan_.recomputed.count(&s) ||
        requests_.neverStored.count(overwrittenName(s))) {
      state.merge(reads);
      return withReadAfter(s, std::move(state));
    }
    std::string v = overwrittenName(s);
    if (state.count(v) || reads.count(v) || requests_.alwaysRestored.count(v)) plan_.restored.insert(&s);
    reads = readsOf(s);  // a new restore of a[i] reads i
    // Overwriting all of v satisfies S's own reads of v (its restore gives the old value) and
    // hides earlier ones. Writing one element of an array does neither: S may read other
    // elements, which an earlier iteration or statement still needs.
    bool whole = s.kind == StmtKind::Decl || s.lhs->kind == ExprKind::Var;
    if (whole) {
      state.erase(v);
      reads.erase(v);
    }
    state.merge(reads);
    return withReadAfter(s, std::move(state));
  }

  Names flowLoop(const Stmt& s, Names state) {
    state.merge(readsOf(s));
    std::vector<Names> outerBreaks;
    std::swap(outerBreaks, breaks_);
    Names head = state;
    for (;;) {
      breaks_.clear();
      Names out = flowList(s.body, head, true);
      size_t size = head.size();
      head.merge(out);
      if (head.size() == size) break;
    }
    Names exit = head;
    for (Names& b : breaks_) exit.merge(b);
    std::swap(outerBreaks, breaks_);
    return exit;
  }
};

}  // namespace

namespace {

bool callsOnlyPure(const ExprPtr& e, const Module& m, int depth = 0);

// Whether `call` is of a device function of scalar parameters whose body calls only pure
// functions and declares nothing in shared memory: with no pointer it reads no memory, and with
// no shuffle or barrier it needs no other thread, so its result depends on its arguments alone
// and the reverse sweep can call it again instead of taping what it returned.
bool isPureDeviceCall(const Expr& call, const Module& m, int depth) {
  const Function* f = m.find(call.text);
  if (!f || !f->device || f->kernel || depth > 8) return false;
  for (const Param& p : f->params)
    if (p.type.pointer || p.type.arraySize > 0) return false;
  bool pure = true;
  walk(f->body, [&](const Stmt& s) {
    pure &= !(s.kind == StmtKind::Decl && s.type.shared);
    for (const ExprPtr& e : {s.lhs, s.expr}) pure &= !e || callsOnlyPure(e, m, depth + 1);
    for (const ExprPtr& e : s.args) pure &= callsOnlyPure(e, m, depth + 1);
  });
  return pure;
}

// Whether `e` calls only pure functions (see Module::isPureCall, and device functions of scalars
// that call only those), whose results depend on their arguments alone.
bool callsOnlyPure(const ExprPtr& e, const Module& m, int depth) {
  bool ok = true;
  walk(e, [&](const Expr& x) {
    ok &=
        x.kind != ExprKind::Verbatim && (x.kind != ExprKind::Call || m.isPureCall(x) || isPureDeviceCall(x, m, depth));
  });
  return ok;
}

using Assignments = std::map<std::string, int>;  // a variable -> how many statements assign it

struct Recomputing {
  const Names& changed;  // what the loop's body assigns or declares
  const Assignments& assignments;
  const Module& m;
  std::set<const Stmt*>& out;

  bool inputsKept(const ExprPtr& e, const Names& available) const {
    if (!callsOnlyPure(e, m)) return false;
    for (const std::string& v : analysis::readVariables(e))
      if (changed.count(v) && !available.count(v)) return false;
    return true;
  }

  // `T v = c; if (cond) { ...; v = a; } else { ...; v = b; }`, a value chosen by branches (a call
  // under ?:, extracted into its branch): recomputable whole where the branches declare only
  // recomputable locals and assign nothing but v, and nothing else assigns v.
  bool isChoice(const Stmt& d, const Stmt& branch, const Names& available) const {
    if (d.kind != StmtKind::Decl || !d.expr || d.type.isIndexed() || branch.kind != StmtKind::If ||
        !inputsKept(d.expr, available) || !inputsKept(branch.expr, available))
      return false;
    int assigns = 0;
    for (const StmtList* side : {&branch.body, &branch.elseBody}) {
      Names inBranch = available;  // and the branch's recomputable declarations before x
      for (const StmtPtr& x : *side) {
        bool setsV = x->kind == StmtKind::Assign && x->op == Op::Assign && x->lhs->kind == ExprKind::Var &&
                     x->lhs->text == d.name;
        if (setsV && !inputsKept(x->expr, inBranch)) return false;
        if (!setsV && !(x->kind == StmtKind::Decl && out.count(x.get()))) return false;
        if (setsV) ++assigns;
        if (x->kind == StmtKind::Decl) inBranch.insert(x->name);
      }
    }
    auto total = assignments.find(d.name);
    return total != assignments.end() && total->second == assigns;
  }

  // The declarations of `list` (a loop's body, or a branch of an if in it) that the reverse of an
  // iteration can compute again where it needs them: of pure values, never assigned again, whose
  // inputs the loop does not change or are recomputed before them (`available`: at the
  // iteration's top, or earlier in the same branch).
  void find(const StmtList& list, Names available) {
    const Stmt* searched = nullptr;  // an if whose branches were searched with the statement before it
    for (size_t k = 0; k < list.size(); ++k) {
      const StmtPtr& d = list[k];
      if (d->kind == StmtKind::If) {  // a branch's declarations are recomputed in the branch's reverse
        if (d.get() != searched) {
          find(d->body, available);
          find(d->elseBody, available);
        }
        continue;
      }
      if (d->kind == StmtKind::Decl && d->expr && d->type.arraySize == 0 && !assignments.count(d->name) &&
          inputsKept(d->expr, available)) {
        available.insert(d->name);
        out.insert(d.get());
        continue;
      }
      if (k + 1 == list.size() || list[k + 1]->kind != StmtKind::If) continue;
      const Stmt& branch = *list[k + 1];
      find(branch.body, available);  // (what the branches declare, before the choice is judged)
      find(branch.elseBody, available);
      searched = &branch;
      if (!isChoice(*d, branch, available)) continue;
      out.insert(d.get());
      out.insert(&branch);
      auto assignment = [&](const Stmt& x) {
        if (x.kind == StmtKind::Assign) out.insert(&x);
      };
      walk(branch.body, assignment);
      walk(branch.elseBody, assignment);
      available.insert(d->name);
      ++k;
    }
  }
};

void findRecomputable(const StmtList& body, const Assignments& assignments, const Module& m,
                      std::set<const Stmt*>& out) {
  for (const StmtPtr& s : body) {
    for (const StmtList* inner : {&s->body, &s->elseBody}) findRecomputable(*inner, assignments, m, out);
    if (!isLoop(s->kind)) continue;
    Names changed = analysis::assignedVariables(s->body);
    Recomputing{changed, assignments, m, out}.find(s->body, {});
  }
}

}  // namespace

std::set<const Stmt*> recomputableDeclarations(const StmtList& body, const Module& m) {
  Assignments assignments;
  walk(body, [&](const Stmt& s) {
    if (s.kind == StmtKind::Assign) ++assignments[rootName(*s.lhs)];
  });
  std::set<const Stmt*> out;
  findRecomputable(body, assignments, m, out);
  return out;
}

TapePlan planTape(const StmtList& body, const Module& m,
                  const std::function<std::set<std::string>(const Stmt&)>& reverseReads, const TapeRequests& requests) {
  TapePlan plan;
  plan.recomputed = recomputableDeclarations(body, m);
  walk(body, [&](const Stmt& s) {
    if (s.kind == StmtKind::If && !s.passive && changesItsCondition(s)) plan.tapedBranch.insert(&s);
  });
  ExposedReads flow(plan, reverseReads, requests);
  while (flow.run(body)) {
  }
  walk(body, [&](const Stmt& s) {
    if (s.kind == StmtKind::If && (plan.tapedBranch.count(&s) || s.passive)) return;
    plan.reverseReads.merge(reverseReads(s));
    if (plan.recomputed.count(&s)) plan.reverseReads.merge(analysis::readVariables(s.expr));
  });
  for (const auto& [s, v] : requests.readsAfter) plan.reverseReads.insert(v);
  for (const Stmt* s : plan.restored) {
    plan.reverseReads.insert(overwrittenName(*s));
    if (s->kind == StmtKind::Assign) plan.reverseReads.merge(indexReads(*s->lhs));
  }
  return plan;
}

}  // namespace adjoint::derive
