#include "ad/derive/ReverseMode.h"

#include <algorithm>
#include <map>

#include "ad/analysis/Activity.h"
#include "ad/analysis/Loops.h"
#include "ad/analysis/OutputReads.h"
#include "ad/derive/Adjoints.h"
#include "ad/derive/TapePlan.h"
#include "ad/ir/Diagnostic.h"
#include "ad/ir/Names.h"
#include "ad/ir/Naming.h"

namespace adjoint::derive {

namespace {

using namespace ir;

const Type kInt = Type::integer();

// The pullback's parameter for the adjoint of the result: result_bar, unless the function has a
// variable `result`, whose adjoint that is.
std::string resultSeed(const Function& f) { return naming::adjointOf(NameSet(f).fresh("result")); }

class ReverseBuilder {
 public:
  ReverseBuilder(const Module& m, const Function& f, const Request& r, Requests& q)
      : m_(m),
        f_(f),
        r_(r),
        names_(f),
        adjoints_(m, f, r.wrt, q, r.entry ? number(1, f.returnType) : var(resultSeed(f), f.returnType)) {}

  Function build() {
    auto reads = [&](const Stmt& s) { return reverseReads(s); };
    plan_ = planTape(f_.body, m_, reads);
    // The caller's buffers are left as they came: a store into one that nothing but its own
    // updates reads, or that nothing reads after it (an in-place update, the kernel's last use of
    // the buffer), is left out of the forward sweep; any other is undone by the reverse sweep.
    std::set<std::string> readBuffers, readInForward = analysis::readVariablesBesidesUpdates(f_.body);
    for (const std::string& b : writtenBuffers()) {
      bool read = (readInForward.count(b) || plan_.reverseReads.count(b)) && analysis::readsWhatItStores(f_.body, b);
      (read ? readBuffers : skippedBuffers_).insert(b);
    }
    // K_value_and_vjp keeps every store: the kernel's outputs are what its caller wants. None of them
    // is read after its store (the caller asks for it only then), so none needs restoring either.
    if (r_.variant == naming::Variant::WithValue) {
      if (!readBuffers.empty())
        throw InternalError("'" + f_.name + "' reads '" + *readBuffers.begin() +
                            "' after storing into it: its value and vjp cannot be one kernel");
      skippedBuffers_.clear();
    }
    TapeRequests requests{readBuffers, skippedBuffers_, {}};
    if (!readBuffers.empty() || !skippedBuffers_.empty()) plan_ = planTape(f_.body, m_, reads, requests);
    planResultReads(requests, reads);
    if (r_.variant == naming::Variant::FromOutput) readStoresAsLeft();
    markStoredPerIteration(f_.body);
    adjoints_.restartNumbering();
    StmtList reverse = reverseList(f_.body);
    // A copy: the forward sweep's statements come from the module, and later stages edit them.
    StmtList forward = clone(forwardList(f_.body, false));
    return assemble(std::move(forward), std::move(reverse));
  }

 private:
  const Module& m_;
  const Function& f_;
  const Request& r_;
  NameSet names_;  // taken names: the function's, and those given out for loops and saved values
  Adjoints adjoints_;
  TapePlan plan_;
  std::map<std::string, Type> tapes_;       // tape name -> element type
  std::vector<const Stmt*> replayedLoops_;  // loops whose recorded trip count the reverse replays
  std::set<const Stmt*> untapedBranches_;   // ifs whose reverse is empty
  std::map<const Stmt*, std::string> loopNames_;
  std::map<const Stmt*, std::string> saved_;  // values saved in locals instead of tapes
  std::vector<StmtPtr> hoisted_;              // nested declarations the reverse sweep reads
  std::set<const Stmt*> storedPerIteration_;  // loop-locals taped where they are computed
  std::set<const Stmt*> unreadPerIteration_;  // of those, the ones no reverse iteration reads
  std::set<std::string> skippedBuffers_;      // pointer parameters whose stores the forward sweep leaves out
  std::string asLeft_;                        // K_vjp_from_output: the buffers it reads as K leaves them
  unsigned enclosingLine_ = 0;
  unsigned lastCommentLine_ = 0;  // statements of one forward line share its comment

  // A rule reading the call's result (`h = tanh(u)`: tanh_dx(x, y) = 1 - y * y) reads the local
  // holding it, where the plan keeps its value for the reverse of the call's statement at no
  // cost: no overwrite restored that was not before, and no value taped per iteration that
  // nothing else reads. Elsewhere the reverse evaluates the call again.
  void planResultReads(TapeRequests& requests, const std::function<std::set<std::string>(const Stmt&)>& reads) {
    std::vector<std::pair<const Stmt*, std::string>> candidates;  // in the forward's order
    std::map<std::string, int> readers;                           // how many statements' reverses read each variable
    walk(f_.body, [&](const Stmt& s) {
      if (std::string v = adjoints_.resultVariable(s); !v.empty()) candidates.emplace_back(&s, v);
      for (const std::string& v : reads(s)) ++readers[v];
    });
    std::set<const Stmt*> kept;
    for (const auto& [s, v] : candidates) {
      if (plan_.restored.count(s) && plan_.inLoop.count(s) && !readers[v]) continue;
      TapeRequests one = requests;
      one.readsAfter = {{s, v}};
      if (planTape(f_.body, m_, reads, one).restored != plan_.restored) continue;
      requests.readsAfter.emplace(s, v);
      kept.insert(s);
    }
    if (kept.empty()) return;
    adjoints_.readResultsOf(kept);
    plan_ = planTape(f_.body, m_, reads, requests);
  }

  // K_vjp_from_output: the buffer K updates in place, whose reverse reads only what K stores there,
  // is read as K leaves it, holding what K stored (analysis/OutputReads.h).
  void readStoresAsLeft() {
    std::set<const Stmt*> stores;
    for (const std::string& b : writtenBuffers())
      if (const Stmt* s = analysis::storeReadableAfter(f_, b, m_)) {
        stores.insert(s);
        asLeft_ += (asLeft_.empty() ? "" : ", ") + b;
      }
    if (stores.empty()) throw InternalError("'" + f_.name + "' has no store that its reverse can read as it leaves it");
    adjoints_.readResultsOf(stores);
  }

  // The pointer parameters the function stores into.
  std::set<std::string> writtenBuffers() const {
    std::set<std::string> out;
    for (const std::string& v : analysis::assignedVariables(f_.body))
      if (const Param* p = f_.param(v); p && p->type.pointer) out.insert(v);
    return out;
  }

  std::string comment(const Stmt& s) const {
    std::string text = m_.sourceLine(s.loc.line);
    return text.empty() ? std::string() : "line " + std::to_string(s.loc.line) + ": " + text;
  }

  std::set<std::string> reverseReads(const Stmt& s) {
    StmtList scratch;
    if (s.kind == StmtKind::If) return analysis::readVariables(s.expr);
    analysis::CountedLoop loop;
    if (s.kind == StmtKind::For && analysis::asCountedLoop(s, loop)) {
      auto names = analysis::readVariables(loop.first);
      names.merge(analysis::readVariables(loop.bound));
      names.merge(analysis::readVariables(loop.step));
      return names;
    }
    if (isLoop(s.kind)) return {};
    // Whether a declaration resets its adjoint (in a loop) changes no read of a primal value.
    adjoints_.reverseOf(s, true, scratch);
    std::set<std::string> names;
    walkExprs(scratch, [&](const Expr& e) {
      if (e.kind == ExprKind::Var && !naming::isAdjoint(e.text)) names.insert(e.text);
    });
    return names;
  }

  ExprPtr tapeFor(const std::string& variable, const Type& element) {
    std::string name = naming::tapeOf(variable);
    tapes_[name] = element.element();
    return var(name, Type::tapeOf(element));
  }

  std::string loopName(const Stmt& s) {
    auto it = loopNames_.find(&s);
    if (it != loopNames_.end()) return it->second;
    return loopNames_[&s] = names_.fresh("iterations_L" + std::to_string(s.loc.line));
  }

  // ---- reverse sweep -------------------------------------------------------------------------

  StmtList reverseList(const StmtList& body) {
    StmtList out;
    for (auto it = body.rbegin(); it != body.rend(); ++it) reverseStmt(**it, out);
    return out;
  }

  void reverseStmt(const Stmt& s, StmtList& out) {
    size_t first = out.size();
    unsigned outerLine = enclosingLine_;
    enclosingLine_ = s.loc.line;
    switch (s.kind) {
      case StmtKind::If:
        reverseIf(s, out);
        break;
      case StmtKind::For:
        reverseCountedFor(s, out);
        break;
      case StmtKind::While:
      case StmtKind::DoWhile:
        reverseLoop(s, out);
        break;
      case StmtKind::Break:
      case StmtKind::Continue:
      case StmtKind::Block:
        break;
      default: {
        // The restore gives the value before s; a reverse reading the value s assigned runs first.
        bool restores = plan_.restored.count(&s) && !storedPerIteration_.count(&s);
        bool readsAfter = adjoints_.readsResultOf(s);
        if (restores && !readsAfter) out.push_back(restore(s));
        adjoints_.reverseOf(s, plan_.inLoop.count(&s) > 0, out);
        if (restores && readsAfter) out.push_back(restore(s));
      }
    }
    enclosingLine_ = outerLine;
    // One comment per forward line: a statement on its loop's line needs none of its own.
    if (out.size() > first && out[first]->comment.empty() && s.loc.line != outerLine &&
        s.loc.line != lastCommentLine_) {
      out[first]->comment = comment(s);
      if (!out[first]->loc.line) out[first]->loc = s.loc;
      lastCommentLine_ = s.loc.line;
    }
  }

  StmtPtr restore(const Stmt& s) {
    ExprPtr target = s.kind == StmtKind::Decl ? var(s.name, s.type) : s.lhs;
    if (usesSavedValue(s)) return assign(target, Op::Assign, var(savedName(s), target->type.element()));
    return assign(target, Op::Assign, pop(tapeFor(rootName(*target), target->type)));
  }

  // An assignment that runs at most once per call (outside every loop) saves the value it
  // overwrites in a local instead of a tape: device code has no tapes, and host code needs none.
  bool usesSavedValue(const Stmt& s) const { return s.kind == StmtKind::Assign && !plan_.inLoop.count(&s); }

  // The statements whose overwritten values are saved in locals, by their lines (the map's own
  // order is of addresses, which would change the output from one build to the next).
  static std::vector<const Stmt*> inForwardOrder(const std::map<const Stmt*, std::string>& saved) {
    std::vector<const Stmt*> order;
    for (const auto& [s, name] : saved) order.push_back(s);
    std::sort(order.begin(), order.end(), [&](const Stmt* a, const Stmt* b) {
      return std::pair(a->loc.line, saved.at(a)) < std::pair(b->loc.line, saved.at(b));
    });
    return order;
  }

  std::string savedName(const Stmt& s) {
    auto it = saved_.find(&s);
    if (it != saved_.end()) return it->second;
    std::string name = names_.fresh(naming::savedBefore(rootName(*s.lhs), s.loc.line));
    saved_[&s] = name;
    return name;
  }

  void reverseIf(const Stmt& s, StmtList& out) {
    StmtList thenRev = withRecomputed(s.body, reverseList(s.body));
    StmtList elseRev = withRecomputed(s.elseBody, reverseList(s.elseBody));
    if (thenRev.empty() && elseRev.empty()) {
      untapedBranches_.insert(&s);
      return;
    }
    ExprPtr cond = s.expr;
    if (plan_.tapedBranch.count(&s)) cond = pop(branchTape(s));
    if (thenRev.empty())
      out.push_back(ifStmt(unary(Op::Not, cond), elseRev));
    else
      out.push_back(ifStmt(cond, thenRev, elseRev));
  }

  ExprPtr branchTape(const Stmt& s) { return tapeFor("branch_L" + std::to_string(s.loc.line), Type::of(Scalar::Bool)); }

  // A local that a loop's body declares, never assigns again, and whose value the reverse needs is
  // taped right after its declaration and declared again, from the tape, at the top of the
  // iteration's reverse: one value per iteration, kept in the loop's scope.
  void markStoredPerIteration(const StmtList& body) {
    walk(body, [&](const Stmt& loop) {
      if (!isLoop(loop.kind)) return;
      std::set<std::string> assigned, addressed;
      walk(loop.body, [&](const Stmt& x) {
        if (x.kind == StmtKind::Assign) assigned.insert(rootName(*x.lhs));
      });
      walkExprs(loop.body, [&](const Expr& e) {
        if (isOp(e, Op::AddressOf)) addressed.insert(rootName(*e.operands[0]));
      });
      for (const StmtPtr& d : loop.body)
        if (d->kind == StmtKind::Decl && plan_.restored.count(d.get()) && !plan_.recomputed.count(d.get()) &&
            !d->type.isIndexed() && d->expr && !assigned.count(d->name) && !addressed.count(d->name))
          storedPerIteration_.insert(d.get());
    });
  }

  // The loop-locals of one iteration that its reverse reads (`needed`), from their tape, the last
  // taped first. Those it does not read are not taped at all.
  StmtList loadedPerIteration(const Stmt& loop, const std::set<std::string>& needed) {
    StmtList out;
    for (auto it = loop.body.rbegin(); it != loop.body.rend(); ++it) {
      if (!storedPerIteration_.count(it->get())) continue;
      if (!needed.count((*it)->name)) {
        unreadPerIteration_.insert(it->get());
        continue;
      }
      Type t = (*it)->type;
      t.constant = true;
      out.push_back(decl((*it)->name, t, pop(tapeFor((*it)->name, (*it)->type))));
    }
    if (!out.empty()) out.front()->comment = "this iteration's values, taped where the forward sweep computed them";
    return out;
  }

  // The reverse of one iteration: the loop-locals taped in it and the recomputed declarations it
  // reads, then the adjoints.
  StmtList reverseIteration(const Stmt& loop) {
    StmtList body = reverseList(loop.body);
    if (body.empty()) {
      loadedPerIteration(loop, analysis::readVariables(body));
      return body;
    }
    body = withRecomputed(loop.body, std::move(body));
    StmtList loaded = loadedPerIteration(loop, analysis::readVariables(body));
    body.insert(body.begin(), loaded.begin(), loaded.end());
    return body;
  }

  // An assignment of the value a recomputed if chooses.
  static const Stmt& chosenBy(const Stmt& branch) {
    for (const StmtList* side : {&branch.body, &branch.elseBody})
      for (const StmtPtr& x : *side)
        if (x->kind == StmtKind::Assign) return *x;
    throw InternalError("a recomputed if that assigns nothing");
  }

  // `reversed`, the reverse of `forward` (an iteration's body or a branch of an if in it), after
  // the recomputed declarations of `forward` that it reads.
  StmtList withRecomputed(const StmtList& forward, StmtList reversed) {
    if (reversed.empty()) return reversed;
    std::set<std::string> needed = analysis::readVariables(reversed);
    StmtList recomputed;
    for (auto it = forward.rbegin(); it != forward.rend(); ++it) {
      if (!plan_.recomputed.count(it->get())) continue;
      if ((*it)->kind == StmtKind::If) {  // the if that chooses the value the declaration before it holds
        if (!needed.count(rootName(*chosenBy(**it).lhs))) continue;
        needed.merge(analysis::readVariables(StmtList{*it}));
        recomputed.insert(recomputed.begin(), clone({*it}).front());
        continue;
      }
      if (!needed.count((*it)->name)) continue;
      needed.merge(analysis::readVariables((*it)->expr));
      recomputed.insert(recomputed.begin(), decl((*it)->name, (*it)->type, (*it)->expr));
    }
    if (recomputed.empty()) return reversed;
    recomputed.front()->comment = "recomputed, not taped";
    reversed.insert(reversed.begin(), recomputed.begin(), recomputed.end());
    return reversed;
  }

  void reverseCountedFor(const Stmt& s, StmtList& out) {
    analysis::CountedLoop loop;
    if (!analysis::asCountedLoop(s, loop))
      throw InternalError("the reverse of a for loop at line " + std::to_string(s.loc.line) +
                          " that is not in counted form");
    StmtList body = reverseIteration(s);
    if (!body.empty()) out.push_back(analysis::reversedLoop(loop, std::move(body)));
  }

  void reverseLoop(const Stmt& s, StmtList& out) {
    StmtList body = reverseIteration(s);
    if (body.empty()) return;
    replayedLoops_.push_back(&s);
    std::string n = loopName(s);
    if (plan_.inLoop.count(&s)) out.push_back(assign(var(n, kInt), Op::Assign, pop(tapeFor(n, kInt))));
    std::string k = naming::loopCountOf(s.loc.line);
    ExprPtr kv = var(k, kInt);
    out.push_back(forStmt(decl(k, kInt, var(n, kInt)), binary(Op::Gt, kv, number(0, kInt)),
                          assign(kv, Op::Sub, number(1, kInt)), body));
  }

  // ---- forward sweep -------------------------------------------------------------------------

  StmtList forwardList(const StmtList& body, bool nested) {
    StmtList out;
    for (const StmtPtr& s : body) forwardStmt(s, nested, out);
    return out;
  }

  void forwardStmt(const StmtPtr& s, bool nested, StmtList& out) {
    switch (s->kind) {
      case StmtKind::Return:
        return;  // the forward sweep runs on into the reverse sweep
      case StmtKind::Decl:
        forwardDecl(s, nested, out);
        return;
      case StmtKind::Assign:
        if (skippedBuffers_.count(rootName(*s->lhs))) return;
        if (plan_.restored.count(s.get()) && usesSavedValue(*s))
          out.push_back(at(assign(var(savedName(*s), s->lhs->type.element()), Op::Assign, s->lhs), s->loc));
        else if (plan_.restored.count(s.get()))
          out.push_back(push(tapeFor(rootName(*s->lhs), s->lhs->type), s->lhs));
        out.push_back(s);
        return;
      case StmtKind::If: {
        auto copy = std::make_shared<Stmt>(*s);
        copy->body = forwardList(s->body, true);
        copy->elseBody = forwardList(s->elseBody, true);
        if (plan_.tapedBranch.count(s.get()) && !untapedBranches_.count(s.get())) {
          ExprPtr tape = branchTape(*s);
          out.push_back(at(push(tape, s->expr), s->loc));
          copy->expr = top(tape);
        }
        out.push_back(copy);
        return;
      }
      case StmtKind::For:
      case StmtKind::While:
      case StmtKind::DoWhile:
        forwardLoop(s, out);
        return;
      default:
        out.push_back(s);
    }
  }

  void forwardDecl(const StmtPtr& s, bool nested, StmtList& out) {
    if (storedPerIteration_.count(s.get())) {
      out.push_back(s);
      if (!unreadPerIteration_.count(s.get())) out.push_back(push(tapeFor(s->name, s->type), var(s->name, s->type)));
      return;
    }
    bool hoist = nested && plan_.reverseReads.count(s->name) && !plan_.recomputed.count(s.get());
    if (!hoist) {
      out.push_back(s);
      return;
    }
    hoisted_.push_back(s);
    ExprPtr v = var(s->name, s->type);
    if (plan_.restored.count(s.get())) {
      if (s->type.arraySize > 0)
        throw Diagnostic(s->loc, "an array declared inside a loop whose values the gradient needs is not supported",
                         "declare the array before the loop");
      out.push_back(push(tapeFor(s->name, s->type), v));
    }
    if (s->expr) out.push_back(at(assign(v, Op::Assign, s->expr), s->loc));
    for (size_t k = 0; k < s->args.size(); ++k)
      out.push_back(at(assign(index(v, number(static_cast<double>(k), kInt)), Op::Assign, s->args[k]), s->loc));
  }

  void forwardLoop(const StmtPtr& s, StmtList& out) {
    auto copy = std::make_shared<Stmt>(*s);
    copy->body = forwardList(s->body, true);
    if (std::find(replayedLoops_.begin(), replayedLoops_.end(), s.get()) == replayedLoops_.end()) {
      out.push_back(copy);
      return;
    }
    ExprPtr n = var(loopName(*s), kInt);
    bool inLoop = plan_.inLoop.count(s.get()) > 0;
    if (inLoop) out.push_back(assign(n, Op::Assign, number(0, kInt)));
    copy->body.insert(copy->body.begin(), assign(n, Op::Add, number(1, kInt)));
    out.push_back(copy);
    if (inLoop) out.push_back(push(tapeFor(n->text, kInt), n));
  }

  // ---- assembly ------------------------------------------------------------------------------

  Function assemble(StmtList forward, StmtList reverse) {
    Function g;
    g.name = derivativeName(f_, r_.wrt, Mode::Reverse, r_.entry, r_.variant);
    if (r_.variant == naming::Variant::WithValue)
      g.doc = f_.name + " and its reverse mode in one kernel:\nwrites what " + f_.name +
              " writes, and adds the gradient of the arrays it writes,\nseeded through their _bar arrays, into the "
              "_bar arguments.";
    if (r_.variant == naming::Variant::FromOutput)
      g.doc = f_.name + "'s reverse mode, for a caller that has run " + f_.name + ": it reads " + asLeft_ + " as " +
              f_.name + "\nleft it (the derivative of what " + f_.name +
              " stored there, from the stored value), its other arrays\nas they were before " + f_.name + ".";
    g.returnType = Type::of(Scalar::Void);
    g.params = f_.params;
    g.internal = !r_.entry;
    g.primal = f_.name;
    g.loc = f_.loc;
    if (!r_.entry && f_.returnsFloating())
      g.params.push_back(Param{resultSeed(f_), f_.returnType.element(), Role::ResultAdjoint});
    for (const Param* p : differentiatedParams(f_, r_.wrt))
      g.params.push_back(Param{naming::adjointOf(p->name), p->type.writableIndexed(), Role::Adjoint, p->name});
    // (A kernel's tapes become global scratch: transforms/TapeScratch.h.)
    if (f_.device && !tapes_.empty())
      throw Diagnostic(
          f_.loc,
          "the reverse of '" + f_.name + "' would record values on a tape ('" + tapes_.begin()->first +
              "'), which device code cannot grow",
          "in kernels, avoid overwriting values the gradient needs inside loops and data-dependent branches: "
          "declare a new local instead of reassigning one");
    StmtList setup;
    for (const auto& [name, type] : tapes_) setup.push_back(decl(name, Type::tapeOf(type), nullptr));
    for (const StmtPtr& h : hoisted_)
      setup.push_back(decl(h->name, h->type, h->type.arraySize > 0 ? nullptr : number(0, h->type)));
    for (const Stmt* saving : inForwardOrder(saved_))
      setup.push_back(decl(saved_[saving], saving->lhs->type.element(), number(0, saving->lhs->type.element())));
    for (const Stmt* loop : replayedLoops_) setup.push_back(decl(loopNames_[loop], kInt, number(0, kInt)));
    if (!setup.empty()) setup.front()->section = Section::Recorded;
    if (!forward.empty()) forward.front()->section = Section::Forward;
    StmtList adjointDecls = adjoints_.declarations();
    StmtList tail = adjoints_.finish();
    StmtList& first = !adjointDecls.empty() ? adjointDecls : reverse;
    if (!first.empty()) first.front()->section = Section::Reverse;
    for (StmtList* part : {&setup, &forward, &adjointDecls, &reverse, &tail})
      g.body.insert(g.body.end(), part->begin(), part->end());
    return g;
  }
};

}  // namespace

Function reverseFunction(const Module& m, const Function& f, const Request& r, Requests& q) {
  return ReverseBuilder(m, f, r, q).build();
}

}  // namespace adjoint::derive
