#include "transforms/WarpRows.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "ad/analysis/Activity.h"
#include "ad/analysis/Loops.h"
#include "ad/ir/Names.h"

namespace adjoint::transforms {

using namespace ir;

namespace {

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

// What a loop over each thread's row reads and writes, and whether its iterations are independent
// of each other and of the thread that runs them.
class RowLoop {
 public:
  RowLoop(const Function& d, const std::set<std::string>& uniform, const std::set<std::string>& registerSums,
          const std::set<std::string>& writtenByKernel, const std::map<std::string, Type>& locals, bool deterministic)
      : d_(d),
        uniform_(uniform),
        registerSums_(registerSums),
        writtenByKernel_(writtenByKernel),
        locals_(locals),
        deterministic_(deterministic) {}

  // Whether `s` is such a loop: counted by one, its bounds the same in every thread, its body only
  // adding to adjoints (each element at one index that moves with the counter, or with atomics).
  bool accepts(const Stmt& s) {
    // (An unsigned counter's count, bound - first, would wrap around where the loop runs not at all.)
    if (!analysis::asCountedLoop(s, loop_) || loop_.step || loop_.counterType.isUnsigned) return false;
    if (!uniformValue(loop_.first) || !uniformValue(loop_.bound)) return false;
    // A constant count below a warp's width: the thread's own walk is short, the warp's would idle.
    if (loop_.first->kind == ExprKind::Number && loop_.bound->kind == ExprKind::Number &&
        std::abs(loop_.bound->value - loop_.first->value) < 32)
      return false;
    inner_ = {loop_.counter};
    rowSums_.clear();
    addScratchLocals(s);
    addRowSums(s);
    if (!statements(s.body) || !memoryAccesses(s.body)) return false;
    for (const std::string& v : threadValues(s))
      if (!movable(v)) return false;
    return true;
  }

  // The type of a value of the thread the loop reads, as the generated code declares its copy.
  Type typeOf(const std::string& v) const {
    if (v.rfind("threadIdx.", 0) == 0) return Type::integer("unsigned", true);
    Type t = locals_.at(v);
    t.constant = false;
    return t;
  }

  const analysis::CountedLoop& loop() const { return loop_; }
  // The values of the thread that the loop adds to and reads nowhere else (a row's sum).
  const std::set<std::string>& rowSums() const { return rowSums_; }
  // The arrays in global memory the loop adds to or reads that the kernel writes.
  const std::set<std::string>& owned() const { return owned_; }
  // The variables the loop reads that each thread holds its own value of.
  std::set<std::string> threadValues(const Stmt& s) const {
    std::set<std::string> out;
    for (const std::string& v : analysis::readVariablesBesidesUpdates(s.body))
      if (!inner_.count(v) && !uniform_.count(v) && !registerSums_.count(v) && !d_.param(v)) out.insert(v);
    return out;
  }

 private:
  const Function& d_;
  const std::set<std::string>& uniform_;
  const std::set<std::string>& registerSums_;
  const std::set<std::string>& writtenByKernel_;
  const std::map<std::string, Type>& locals_;  // the kernel's locals, by name (unique-names ran)
  bool deterministic_;
  analysis::CountedLoop loop_;
  std::set<std::string> inner_;  // the counter and the locals the body declares
  std::set<std::string> owned_;
  std::set<std::string> rowSums_;

  // Locals declared before the loop that each iteration sets (`a_bar = e` before any other use of
  // a_bar, not under an if) and nothing outside the loop reads: the iteration's own, whichever
  // lane runs it (the adjoints of a loop body's locals, declared where the reverse sweep begins).
  void addScratchLocals(const Stmt& loop) {
    std::set<std::string> readOutside, used;
    readsOutside(d_.body, loop, readOutside);
    for (const StmtPtr& s : loop.body) {
      bool sets = s->kind == StmtKind::Assign && s->op == Op::Assign && s->lhs->kind == ExprKind::Var;
      if (sets && !used.count(s->lhs->text) && !analysis::readVariables(s->expr).count(s->lhs->text) &&
          !readOutside.count(s->lhs->text) && locals_.count(s->lhs->text))
        inner_.insert(s->lhs->text);
      std::set<std::string> touched = analysis::readVariables(StmtList{s});
      std::set<std::string> written = analysis::writtenVariables(StmtList{s});
      used.insert(touched.begin(), touched.end());
      used.insert(written.begin(), written.end());
    }
  }

  // Floating locals declared before the loop that it only adds to (`a_bar += e`, e not reading
  // a_bar): each row's sum, which the walk adds up per row in shared memory. Not with
  // --deterministic: the sums' atomics add in no fixed order.
  void addRowSums(const Stmt& loop) {
    if (deterministic_) return;
    std::set<std::string> read = analysis::readVariablesBesidesUpdates(loop.body), set;
    walk(loop.body, [&](const Stmt& s) {
      if (s.kind == StmtKind::Assign && s.lhs->kind == ExprKind::Var && s.op != Op::Add && s.op != Op::Sub)
        set.insert(s.lhs->text);
    });
    walk(loop.body, [&](const Stmt& s) {
      if (s.kind != StmtKind::Assign || s.lhs->kind != ExprKind::Var || (s.op != Op::Add && s.op != Op::Sub)) return;
      const std::string& v = s.lhs->text;
      auto local = locals_.find(v);
      if (local != locals_.end() && local->second.isFloating() && !local->second.isIndexed() && !read.count(v) &&
          !set.count(v) && !inner_.count(v) && !registerSums_.count(v))
        rowSums_.insert(v);
    });
  }

  // What the statements of `list` read, those of `loop` left out.
  static void readsOutside(const StmtList& list, const Stmt& loop, std::set<std::string>& out) {
    for (const StmtPtr& s : list) {
      if (s.get() == &loop) continue;
      auto own = std::make_shared<Stmt>(*s);  // s itself, without its nested statements
      own->body.clear();
      own->elseBody.clear();
      std::set<std::string> read = analysis::readVariables(StmtList{own});
      out.insert(read.begin(), read.end());
      readsOutside(s->body, loop, out);
      readsOutside(s->elseBody, loop, out);
    }
  }

  // A value adjoint::from_lane moves: a scalar or a pointer into global memory.
  bool movable(const std::string& v) const {
    if (v.rfind("threadIdx.", 0) == 0) return true;
    auto it = locals_.find(v);
    if (it == locals_.end()) return false;
    const Type& t = it->second;
    if (t.shared || t.isArrayLocal() || t.isContainer()) return false;
    return t.pointer || t.scalar == Scalar::Int || t.scalar == Scalar::Bool || t.isFloating();
  }

  // Computed from literals and variables every thread holds the same: no load, no call.
  bool uniformValue(const ExprPtr& e) const {
    if (!analysis::unchangedBy(e, {})) return false;
    for (const std::string& v : analysis::readVariables(e))
      if (!uniform_.count(v)) return false;
    return true;
  }

  bool statements(const StmtList& body) {
    for (const StmtPtr& s : body) {
      switch (s->kind) {
        case StmtKind::Decl:
          if (s->type.shared || s->type.isArrayLocal()) return false;
          inner_.insert(s->name);
          break;
        case StmtKind::Assign:
          if (!assignment(*s)) return false;
          break;
        case StmtKind::Eval:  // one atomicAdd per warp into the block's column sums: one per lane there
          if (s->expr->kind != ExprKind::Call || s->expr->text != "adjoint::warp_add" ||
              !uniform_.count(rootName(*s->expr->operands[0]->operands[0])) ||
              d_.param(rootName(*s->expr->operands[0]->operands[0])))
            return false;
          break;
        case StmtKind::If:
          if (!statements(s->body) || !statements(s->elseBody)) return false;
          break;
        default:
          return false;
      }
    }
    return true;
  }

  // A local of the iteration; a register sum every thread adds to (its order does not matter);
  // an adjoint element.
  bool assignment(const Stmt& s) const {
    if (s.lhs->kind == ExprKind::Var)
      return inner_.count(s.lhs->text) || ((registerSums_.count(s.lhs->text) || rowSums_.count(s.lhs->text)) &&
                                           (s.op == Op::Add || s.op == Op::Sub));
    return s.lhs->kind == ExprKind::Index && isAdjointArray(s.lhs->operands[0]->text);
  }

  bool isAdjointArray(const std::string& name) const {
    if (const Param* p = d_.param(name)) return p->role == Role::Adjoint;
    return uniform_.count(name) > 0;  // the block's shared column sums, declared before the body
  }

  // Every element the loop reads or adds to without an atomic is its iteration's own: an array
  // the kernel writes is used at one index, `e + counter` (e the same in every iteration), and not
  // also added to with atomics. What the kernel never writes is read anywhere. No exchange between
  // threads inside: the iterations run in other lanes than the forward's.
  bool memoryAccesses(const StmtList& body) {
    std::map<std::string, ExprPtr> at;  // array -> its one index
    std::set<std::string> atomics;
    walk(body, [&](const Stmt& s) {
      if (s.kind == StmtKind::Assign && s.atomic) atomics.insert(rootName(*s.lhs));
      if (s.kind == StmtKind::Eval) atomics.insert(rootName(*atomicTarget(s)));
    });
    bool ok = true;
    auto visit = [&](const Expr& e) {
      if (e.kind == ExprKind::Pop || e.kind == ExprKind::Top || e.kind == ExprKind::Verbatim) ok = false;
      if (e.kind == ExprKind::Call && e.text != "adjoint::warp_add" &&
          (contains(e.text, "shfl") || contains(e.text, "sync") || contains(e.text, "ballot") ||
           contains(e.text, "atomic") || contains(e.text, "activemask") || contains(e.text, "match")))
        ok = false;
      if (isOp(e, Op::Deref) && writtenByKernel_.count(rootName(e))) ok = false;
      if (e.kind != ExprKind::Index || e.operands[0]->kind != ExprKind::Var) return;
      const std::string& array = e.operands[0]->text;
      if (!writtenByKernel_.count(array)) return;
      if (atomics.count(array)) ok = false;  // read, or added to plainly, beside the atomics
      auto [it, first] = at.emplace(array, e.operands[1]);
      if (!first && !sameExpr(*it->second, *e.operands[1])) ok = false;
    };
    walk(body, [&](const Stmt& s) {
      // An atomic addition's own target is not a plain access: only its index is read.
      const Expr* target = s.kind == StmtKind::Eval ? atomicTarget(s).get() : s.atomic ? s.lhs.get() : nullptr;
      if (target && target->kind != ExprKind::Index) ok = false;
      if (target) {
        if (target->kind == ExprKind::Index) ir::walk(target->operands[1], visit);
        ir::walk(s.kind == StmtKind::Eval ? s.expr->operands[1] : s.expr, visit);
        return;
      }
      for (const ExprPtr& e : {s.lhs, s.expr}) ir::walk(e, visit);
      for (const ExprPtr& e : s.args) ir::walk(e, visit);
    });
    owned_.clear();
    for (const auto& [array, index] : at) {
      ok &= movesWithCounter(*index);
      owned_.insert(array);
    }
    // Global adjoints added with atomics may also be added to plainly elsewhere (a thread's own
    // element after the loop): ordered like the loop's own elements. The block's column sums wait
    // for the block's barrier.
    for (const std::string& array : atomics)
      if (d_.param(array)) owned_.insert(array);
    return ok;
  }

  // a[i] of adjoint::warp_add(&a[i], v).
  static const ExprPtr& atomicTarget(const Stmt& s) { return s.expr->operands[0]->operands[0]; }

  // `counter` or `e + counter` (either order), e not reading the counter nor a local of the
  // iteration: distinct iterations, distinct elements.
  bool movesWithCounter(const Expr& index) const {
    auto isCounter = [&](const Expr& e) { return e.kind == ExprKind::Var && e.text == loop_.counter; };
    if (isCounter(index)) return true;
    if (!isOp(index, Op::Add)) return false;
    for (int k = 0; k < 2; ++k) {
      if (!isCounter(*index.operands[k])) continue;
      bool fixed = true;
      for (const std::string& v : analysis::readVariables(index.operands[1 - k])) fixed &= !inner_.count(v);
      if (fixed) return true;
    }
    return false;
  }
};

class WarpRows {
 public:
  WarpRows(Function& d, bool deterministic)
      : d_(d), names_(d), writtenByKernel_(analysis::writtenVariables(d.body)), deterministic_(deterministic) {
    std::set<std::string> reassigned;  // scalars and pointers themselves, not what they point to
    walk(d.body, [&](const Stmt& s) {
      if (s.kind == StmtKind::Assign && s.lhs->kind == ExprKind::Var) reassigned.insert(s.lhs->text);
      if (s.kind == StmtKind::Decl) locals_[s.name] = s.type;
    });
    for (const Param& p : d.params) {
      if (!reassigned.count(p.name)) uniform_.insert(p.name);
      pointersMoved_ |= p.type.pointer && reassigned.count(p.name);
    }
    for (const char* builtin : {"blockIdx.x", "blockIdx.y", "blockIdx.z", "blockDim.x", "blockDim.y", "blockDim.z",
                                "gridDim.x", "gridDim.y", "gridDim.z"})
      uniform_.insert(builtin);
    // What the block declares before its body: its column sums in shared memory, and the flag
    // saying whether it has them.
    for (unsigned k = 0; k < d.sumsBefore; ++k) {
      const Stmt& s = *d.body[k];
      if (s.kind == StmtKind::Decl && (s.type.pointer || s.type.scalar == Scalar::Bool)) uniform_.insert(s.name);
    }
    // The register sums every thread adds to the same address (summed over the block at the end).
    for (auto s = d.body.end() - d.sumsAfter; s != d.body.end(); ++s)
      walkExprs(StmtList{*s}, [&](const Expr& e) {
        if (e.kind == ExprKind::Call && e.text == "adjoint::sum_over_threads_into")
          registerSums_.insert(e.operands[1]->text);
      });
  }

  bool run() {
    if (pointersMoved_) return false;  // other threads' rows start elsewhere than they say
    // A thread that returned early would not take part in a walk.
    if (std::any_of(d_.body.begin(), d_.body.end(), [](const StmtPtr& s) { return jumpsOut(*s); })) return false;
    bool changed = false;
    StmtList body(d_.body.begin(), d_.body.begin() + d_.sumsBefore);
    for (size_t k = d_.sumsBefore; k < d_.body.size() - d_.sumsAfter; ++k) {
      StmtList replaced = topLevel(d_.body[k]);
      changed |= replaced.size() != 1 || replaced.front() != d_.body[k];
      body.insert(body.end(), replaced.begin(), replaced.end());
    }
    body.insert(body.end(), d_.body.end() - d_.sumsAfter, d_.body.end());
    d_.body = withWarpBarriers(body);
    return changed;
  }

 private:
  Function& d_;
  NameSet names_;
  std::set<std::string> writtenByKernel_, uniform_, registerSums_;
  std::map<std::string, Type> locals_;
  bool pointersMoved_ = false;  // a pointer parameter advanced in place
  bool deterministic_;

  std::map<const Stmt*, std::set<std::string>> walks_;  // each walk, and the arrays whose rows it owns

  // A lane of a walk adds to elements that other threads of its warp use before and after it, in
  // their own rows: __syncwarp orders those uses (a shuffle does not order memory).
  StmtList withWarpBarriers(const StmtList& body) const {
    StmtList out;
    size_t sinceBarrier = 0;  // the first statement of `out` after its last barrier
    for (size_t k = 0; k < body.size(); ++k) {
      auto walk = walks_.find(body[k].get());
      if (walk == walks_.end()) {
        out.push_back(body[k]);
        continue;
      }
      StmtList before(out.begin() + static_cast<long>(sinceBarrier), out.end());
      StmtList after(body.begin() + static_cast<long>(k) + 1, body.end());
      std::set<std::string> used = analysis::readVariables(after), written = analysis::writtenVariables(after);
      used.insert(written.begin(), written.end());
      if (meets(analysis::writtenVariables(before), walk->second))
        out.push_back(warpBarrier("the rows' elements the walk below uses, as their threads left them above"));
      out.push_back(body[k]);
      if (meets(used, walk->second)) {
        out.push_back(warpBarrier("the rows' elements the walk above used, before their threads use them below"));
        sinceBarrier = out.size();
      }
    }
    return out;
  }

  static bool meets(const std::set<std::string>& a, const std::set<std::string>& b) {
    return std::any_of(b.begin(), b.end(), [&](const std::string& v) { return a.count(v) > 0; });
  }

  static StmtPtr warpBarrier(const std::string& why) {
    return withComment(eval(call("__syncwarp", {}, Type::of(Scalar::Void))), why);
  }

  RowLoop rowLoop() const { return RowLoop(d_, uniform_, registerSums_, writtenByKernel_, locals_, deterministic_); }

  StmtList topLevel(const StmtPtr& s) {
    RowLoop loop = rowLoop();
    if (loop.accepts(*s)) return {walkedByWarp(*s, loop, nullptr)};
    if (s->kind == StmtKind::If && s->elseBody.empty()) return splitGuard(s);
    return {s};
  }

  // if (cond) { a; loop; b; } as `const bool active = cond; if (active) { a; } <the warp's walk
  // of the loop, in the rows whose thread is active>; if (active) { b; }`: every lane of the warp
  // runs the walk. The condition keeps its value (the if writes nothing it reads), and what a part
  // declares is read in that part alone.
  StmtList splitGuard(const StmtPtr& guard) {
    std::map<size_t, RowLoop> loops;  // by their place in the body
    for (size_t k = 0; k < guard->body.size(); ++k)
      if (RowLoop loop = rowLoop(); loop.accepts(*guard->body[k])) loops.emplace(k, loop);
    if (loops.empty() || !keepsCondition(*guard) || !partsKeepTheirDeclarations(guard->body, loops)) return {guard};
    Type flag = Type::of(Scalar::Bool);
    flag.constant = true;
    std::string name = names_.fresh("active");
    ExprPtr active = var(name, Type::of(Scalar::Bool));
    StmtList out{decl(name, flag, guard->expr)};
    out.front()->comment = guard->comment;
    out.front()->loc = guard->loc;
    StmtList part;
    auto flush = [&] {
      if (part.empty()) return;
      out.push_back(ifStmt(active, part));
      part.clear();
    };
    for (size_t k = 0; k < guard->body.size(); ++k) {
      if (!loops.count(k)) {
        part.push_back(guard->body[k]);
        continue;
      }
      flush();
      out.push_back(walkedByWarp(*guard->body[k], loops.at(k), active));
    }
    flush();
    return out;
  }

  bool keepsCondition(const Stmt& guard) const {
    std::set<std::string> written = analysis::writtenVariables(guard.body);
    for (const std::string& v : analysis::readVariables(guard.expr))
      if (written.count(v)) return false;
    return true;
  }

  // The parts become blocks of their own: the statements between two loops, and each loop.
  static bool partsKeepTheirDeclarations(const StmtList& body, const std::map<size_t, RowLoop>& loops) {
    auto isLoop = [&](size_t k) { return loops.count(k) > 0; };
    std::set<std::string> earlier, current;
    for (size_t k = 0; k < body.size(); ++k) {
      if (isLoop(k) || (k > 0 && isLoop(k - 1))) {
        earlier.insert(current.begin(), current.end());
        current.clear();
      }
      for (const std::string& v : analysis::readVariables(StmtList{body[k]}))
        if (earlier.count(v)) return false;
      if (body[k]->kind == StmtKind::Decl) current.insert(body[k]->name);
    }
    return true;
  }

  // The loop's rows (one per lane of the warp: 32, fewer in a block's last warp when the block's
  // size is not a multiple of 32) as one run of lanes * count iterations, row after row, that the
  // lanes take in turn: in each round, lane l at the l-th of the next `lanes`. Every lane runs
  // count rounds (the shuffles need the whole warp); each keeps the row it is in (owner) and the
  // iteration there, moved on by `lanes` a round without a division.
  StmtPtr walkedByWarp(const Stmt& original, const RowLoop& rowLoop, const ExprPtr& active) {
    const analysis::CountedLoop& loop = rowLoop.loop();
    const Type& ct = loop.counterType;
    Type u = Type::integer("unsigned", true);
    ExprPtr count = loop.increasing ? sub(loop.bound, loop.first) : sub(loop.first, loop.bound);
    if (loop.inclusive) count = refold(add(count, number(1, ct)));
    StmtList walk;
    Type constant = ct;
    constant.constant = true;
    if (count->kind != ExprKind::Var && count->kind != ExprKind::Number) {
      std::string name = names_.fresh("count");
      walk.push_back(decl(name, constant, count));
      count = var(name, ct);
    }
    ExprPtr lanes = var(names_.fresh("lanes"), ct);
    walk.push_back(decl(lanes->text, constant, cast(ct, call("adjoint::warp_lanes", {}, u))));
    ExprPtr owner = var(names_.fresh("owner"), u), iteration = var(names_.fresh("iteration"), ct);
    walk.push_back(decl(owner->text, u, number(0, u)));
    walk.push_back(decl(iteration->text, ct, cast(ct, call("adjoint::lane", {}, u))));
    StmtList round{whileStmt(binary(Op::Ge, iteration, count),
                             {assign(iteration, Op::Sub, count), assign(owner, Op::Add, number(1, u))})};
    round.push_back(
        decl(loop.counter, constant, loop.increasing ? add(loop.first, iteration) : sub(loop.first, iteration)));
    // The row's values and the parts of its sums stay with a lane while it walks the row: taken
    // (every lane takes them: a shuffle needs the whole warp) and added where any lane enters
    // another row, not at every element.
    ExprPtr held = var(names_.fresh("held_owner"), u);
    walk.push_back(withComment(decl(held->text, u, owner),
                               "the row whose values the lane holds and whose sums it adds up, taken again (and\n"
                               "the sums added) where any lane of the warp enters another row"));
    StmtList enter;
    std::map<std::string, ExprPtr> values;
    auto fromOwner = [&](const std::string& v, Type t) {
      t.constant = false;
      ExprPtr mine = var(names_.fresh("owner_" + v), t);
      walk.push_back(decl(mine->text, t, call("adjoint::from_lane", {var(v, t), owner}, t)));
      enter.push_back(assign(mine, Op::Assign, call("adjoint::from_lane", {var(v, t), owner}, t)));
      return values[v] = mine;
    };
    for (const std::string& v : rowLoop.threadValues(original)) fromOwner(v, rowLoop.typeOf(v));
    ExprPtr activeOwner = active ? fromOwner(active->text, active->type) : nullptr;
    StmtList body = clone(original.body);
    RowSums sums = rowSumsOf(rowLoop);
    StmtList added;  // each sum's part added to the row it was summed for
    for (const RowSum& sum : sums.each) {
      values[sum.name] = sum.part;
      walk.push_back(decl(sum.part->text, sum.part->type, number(0, sum.part->type)));
      added.push_back(eval(call("adjoint::add_to_row", {sum.slots, held, sum.part}, Type::of(Scalar::Void))));
      enter.push_back(assign(sum.part, Op::Assign, number(0, sum.part->type)));
    }
    enter.insert(enter.begin(), added.begin(), added.end());
    enter.push_back(assign(held, Op::Assign, owner));
    round.push_back(ifStmt(call("adjoint::any_lane", {binary(Op::Ne, owner, held)}, Type::of(Scalar::Bool)), enter));
    substitute(body, values);
    addAtEachElement(body);
    if (activeOwner) {
      round.push_back(ifStmt(activeOwner, body));
    } else {
      round.insert(round.end(), body.begin(), body.end());
    }
    round.push_back(assign(iteration, Op::Add, lanes));
    std::string roundName = names_.fresh("round");
    walk.push_back(forStmt(decl(roundName, ct, number(0, ct)), binary(Op::Lt, var(roundName, ct), count),
                           assign(var(roundName, ct), Op::Add, number(1, ct)), round));
    StmtList lastAdded = clone(added);
    walk.insert(walk.end(), lastAdded.begin(), lastAdded.end());
    walk.insert(walk.begin(), sums.start.begin(), sums.start.end());
    walk.insert(walk.end(), sums.finish.begin(), sums.finish.end());
    StmtPtr out = block(walk);
    walks_[out.get()] = rowLoop.owned();
    out->loc = original.loc;
    out->comment = withWarpNote(original.comment);
    return out;
  }

  struct RowSum {
    std::string name;  // the thread's value, a_bar
    ExprPtr slots;     // a_bar_rows: a slot per thread of the block in shared memory
    ExprPtr part;      // a_bar_part: what the lane's iteration of the round adds
  };
  struct RowSums {
    std::vector<RowSum> each;
    StmtList start, finish;  // the slots zeroed before the walk; each thread's added to it after
  };

  RowSums rowSumsOf(const RowLoop& rowLoop) {
    RowSums out;
    Type u = Type::integer("unsigned", true);
    unsigned k = 0;
    for (const std::string& v : rowLoop.rowSums()) {
      Type t = rowLoop.typeOf(v);
      Type pointer = t.pointerTo(false);
      std::string slots = names_.fresh(v + "_rows");
      ExprPtr mine = index(var(slots, pointer), call("adjoint::thread_rank", {}, u));
      std::string helper = "adjoint::row_sums<" + t.scalarSpelling() + ", " + std::to_string(k++) + "u>";
      out.start.push_back(decl(slots, pointer, call(helper, {}, pointer)));
      out.start.push_back(assign(mine, Op::Assign, number(0, t)));
      out.finish.push_back(assign(var(v, t), Op::Add, mine));
      out.each.push_back({v, var(slots, pointer), var(names_.fresh(v + "_part"), t)});
    }
    if (out.each.empty()) return out;
    out.start.front()->comment = "what the rows add to their threads' sums, a slot per thread";
    out.start.push_back(eval(call("__syncwarp", {}, Type::of(Scalar::Void))));
    out.finish.insert(out.finish.begin(), eval(call("__syncwarp", {}, Type::of(Scalar::Void))));
    return out;
  }

  static std::string withWarpNote(const std::string& comment) {
    std::string note =
        "the iterations of the warp's threads, row after row, walked by the whole warp: lane l at\n"
        "the l-th of every `lanes` (its threads: 32, fewer in a block's last warp), so that the\n"
        "warp's loads are neighbours (its threads' own rows lie a row apart)";
    return comment.empty() ? note : comment + "\n" + note;
  }

  // adjoint::warp_add(&a[i], v) assumed one address across the warp; the lanes are at different
  // iterations now: atomicAdd(&a[i], v).
  static void addAtEachElement(StmtList& body) {
    walk(body, [](Stmt& s) {
      if (s.kind != StmtKind::Eval) return;
      const ExprPtr& target = s.expr->operands[0]->operands[0];
      ExprPtr value = s.expr->operands[1];
      s.kind = StmtKind::Assign;
      s.lhs = target;
      s.op = Op::Add;
      s.expr = value;
      s.atomic = true;
      std::string::size_type at = s.comment.find("one atomicAdd per warp");
      if (at != std::string::npos) s.comment.replace(at, 22, "an atomicAdd");
    });
  }
};

}  // namespace

bool walkRowsByWarp(Function& d, bool deterministic) { return WarpRows(d, deterministic).run(); }

}  // namespace adjoint::transforms
