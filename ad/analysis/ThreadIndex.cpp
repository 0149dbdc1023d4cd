#include "ad/analysis/ThreadIndex.h"

#include <algorithm>
#include <cmath>

#include "ad/analysis/Activity.h"
#include "ad/analysis/Loops.h"
#include "ad/ir/Names.h"

namespace adjoint::analysis {

using namespace ir;

namespace {

bool isVar(const Expr& e, const char* name) {
  const Expr& s = stripCasts(e);
  return s.kind == ExprKind::Var && s.text == name;
}

// a * b or b * a.
bool isProduct(const Expr& e, const char* a, const char* b) {
  const Expr& s = stripCasts(e);
  if (!isOp(s, Op::Mul)) return false;
  return (isVar(*s.operands[0], a) && isVar(*s.operands[1], b)) ||
         (isVar(*s.operands[0], b) && isVar(*s.operands[1], a));
}

bool isInjective(Spread s) { return s == Spread::BlockInjective || s == Spread::GridInjective; }

// blockIdx.x * C + threadIdx.x (in any order) for an integer literal C > 0, as a kernel template
// writes it with its BLOCK: C, else 0. Where blocks have at most C threads, it is the thread's
// own index in the grid.
unsigned literalBlockIndex(const Expr& e) {
  const Expr& s = stripCasts(e);
  if (!isOp(s, Op::Add)) return 0;
  for (int k = 0; k < 2; ++k) {
    const Expr& blocks = stripCasts(*s.operands[1 - k]);
    if (!isVar(stripCasts(*s.operands[k]), "threadIdx.x") || !isOp(blocks, Op::Mul)) continue;
    for (int j = 0; j < 2; ++j) {
      const Expr& width = stripCasts(*blocks.operands[j]);
      if (isVar(*blocks.operands[1 - j], "blockIdx.x") && width.kind == ExprKind::Number && width.value >= 1 &&
          width.value == static_cast<unsigned>(width.value))
        return static_cast<unsigned>(width.value);
    }
  }
  return 0;
}

}  // namespace

// blockIdx.x * blockDim.x + threadIdx.x (or a local holding threadIdx.x), in any order: the
// global index of a thread.
bool ThreadIndexing::isGlobalThreadIndex(const Expr& e) const {
  const Expr& s = stripCasts(e);
  if (!isOp(s, Op::Add)) return false;
  for (int k = 0; k < 2; ++k) {
    const Expr& t = stripCasts(*s.operands[k]);
    bool thread = t.kind == ExprKind::Var && (t.text == "threadIdx.x" || threadIndexAliases_.count(t.text));
    if (thread && isProduct(*s.operands[1 - k], "blockIdx.x", "blockDim.x")) return true;
  }
  return false;
}

ThreadIndexing::ThreadIndexing(const Function& kernel) {
  walkExprs(kernel.body, [&](const Expr& e) {
    if (unsigned width = literalBlockIndex(e)) indexBlocks_.add(BlockShape{false, width});
    if (e.kind != ExprKind::Var) return;
    for (const char* object : {"threadIdx.", "blockIdx.", "blockDim.", "gridDim."})
      if (e.text.rfind(object, 0) == 0 && e.text.back() != 'x') oneDimensional_ = false;
  });
  std::vector<Condition> conditions;
  collect(kernel.body, conditions);
  writtenArrays_ = assignedVariables(kernel.body);
  // Varying: a fixpoint over the definitions.
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [name, defs] : defs_) {
      if (varying_.count(name)) continue;
      for (const Definition& d : defs)
        if (d.underVaryingControl || isVarying(d.value)) {
          changed |= varying_.insert(name).second;
          break;
        }
    }
  }
  if (!oneDimensional_) return;
  for (const auto& [name, defs] : defs_)
    if (defs.size() == 1 && defs[0].value && !defs[0].underVaryingControl && isVar(*defs[0].value, "threadIdx.x"))
      threadIndexAliases_.insert(name);
  // Injective: variables defined once from the thread's index (or its affine variants), and the
  // counters of grid-stride loops.
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [name, defs] : defs_) {
      if (gridInjective_.count(name) || blockInjective_.count(name)) continue;
      if (defs.size() == 1 && defs[0].value && defs[0].stmt->kind == StmtKind::Decl && !defs[0].underVaryingControl) {
        if (isGlobalThreadIndex(*defs[0].value)) globalIndexVars_.insert(name);
        Spread s = spread(defs[0].value);
        if (s == Spread::GridInjective) changed |= gridInjective_.insert(name).second;
        if (s == Spread::BlockInjective) changed |= blockInjective_.insert(name).second;
      } else if (isGridStrideCounter(name)) {
        changed |= gridInjective_.insert(name).second;
      }
    }
  }
}

void ThreadIndexing::collect(const StmtList& body, std::vector<Condition>& conditions) {
  auto define = [&](const std::string& name, const ExprPtr& value, const Stmt* s) {
    bool varyingControl = false, inLoop = false;
    for (const Condition& c : conditions) {
      varyingControl |= isVarying(c.expr);
      inLoop |= c.loop;
    }
    defs_[name].push_back({value, varyingControl, s, inLoop});
  };
  for (const StmtPtr& s : body) {
    std::vector<ExprPtr>& guards = guards_[s.get()];
    for (const Condition& c : conditions)
      if (!c.loop) guards.push_back(c.expr);
    if (s->kind == StmtKind::Decl) define(s->name, s->expr, s.get());
    if (s->kind == StmtKind::Assign && s->lhs->kind == ExprKind::Var)
      define(s->lhs->text, s->op == Op::Assign ? s->expr : binary(s->op, s->lhs, s->expr), s.get());
    if (s->kind == StmtKind::For && s->init && s->init->kind == StmtKind::Decl)
      loops_[s->init->name].push_back(s.get());
    if (s->init) collect({s->init}, conditions);
    bool conditional = s->kind == StmtKind::If || isLoop(s->kind);
    if (conditional) conditions.push_back({s->expr, isLoop(s->kind)});
    if (s->step) collect({s->step}, conditions);
    collect(s->body, conditions);
    collect(s->elseBody, conditions);
    if (conditional) conditions.pop_back();
  }
}

// Conservative before the fixpoint ends: what is not yet known to vary is taken as uniform, and
// the fixpoint repeats until nothing changes.
bool ThreadIndexing::isVarying(const ExprPtr& e) const {
  if (!e) return false;
  bool varies = false;
  walk(e, [&](const Expr& x) {
    if (x.kind == ExprKind::Var)
      varies |= x.text.rfind("threadIdx.", 0) == 0 || x.text.rfind("blockIdx.", 0) == 0 || varying_.count(x.text);
    // What memory holds is uniform only where the kernel never writes it (shared memory is
    // written by the block's threads).
    if (x.kind == ExprKind::Index) {
      const Expr& array = *x.operands[0];
      varies |= array.kind != ExprKind::Var || array.type.shared || writtenArrays_.count(array.text);
    }
  });
  return varies;
}

// for (i = <the global index, shifted>; ...; i += blockDim.x * gridDim.x): the indices of different
// threads never meet, in any iteration. So too for the reverse sweep's loop that runs it back,
// for (i = g + k * (blockDim.x * gridDim.x); i >= g; i -= blockDim.x * gridDim.x): every value
// is g modulo the grid's size, and g differs between threads; the loop's own counter, it means
// the same under a guard that varies (the reverse's if (g < n)).
bool ThreadIndexing::isGridStrideCounter(const std::string& v) const {
  auto it = defs_.find(v);
  if (it == defs_.end() || it->second.size() != 2) return false;
  const Definition& init = it->second[0];
  const Definition& step = it->second[1];
  if (!init.value || init.stmt->kind != StmtKind::Decl || step.stmt->kind != StmtKind::Assign ||
      !isProduct(*step.stmt->expr, "blockDim.x", "gridDim.x"))
    return false;
  if (step.stmt->op == Op::Add) return !init.underVaryingControl && isShiftedGlobalIndex(*init.value);
  const Expr& start = stripCasts(*init.value);
  return step.stmt->op == Op::Sub && isOp(start, Op::Add) && isShiftedGlobalIndex(*start.operands[0]) &&
         isOp(*start.operands[1], Op::Mul) && isProduct(*start.operands[1]->operands[1], "blockDim.x", "gridDim.x");
}

// The thread's global index shifted by values the same in every thread (g, g + k, g - k, or a
// local defined once as one): as a grid-stride loop's start, no iteration meets another
// thread's. A scaled index (2 * g) or one written blockIdx.x * C + threadIdx.x would, in launches
// of fewer than C threads per block: the loop steps by blockDim.x * gridDim.x.
bool ThreadIndexing::isShiftedGlobalIndex(const Expr& e) const {
  const Expr& s = stripCasts(e);
  if (isGlobalThreadIndex(s) || (s.kind == ExprKind::Var && globalIndexVars_.count(s.text))) return true;
  if (s.kind == ExprKind::Var) {
    const Definition* d = onlyDefinition(s);
    return d && isShiftedGlobalIndex(*d->value);
  }
  if (!isOp(s, Op::Add) && !isOp(s, Op::Sub)) return false;
  return (isShiftedGlobalIndex(*s.operands[0]) && spread(s.operands[1]) == Spread::Uniform) ||
         (isOp(s, Op::Add) && isShiftedGlobalIndex(*s.operands[1]) && spread(s.operands[0]) == Spread::Uniform);
}

bool ThreadIndexing::isThreadIndex(const Expr& e) const {
  const Expr& s = stripCasts(e);
  return oneDimensional_ && (isGlobalThreadIndex(s) || (s.kind == ExprKind::Var && globalIndexVars_.count(s.text)));
}

Spread ThreadIndexing::spread(const ExprPtr& e) const {
  const Expr& s = stripCasts(*e);
  if (s.kind == ExprKind::Var) {
    if (gridInjective_.count(s.text)) return Spread::GridInjective;
    if (blockInjective_.count(s.text) || (oneDimensional_ && s.text == "threadIdx.x")) return Spread::BlockInjective;
  }
  if (oneDimensional_ && (isGlobalThreadIndex(s) || literalBlockIndex(s))) return Spread::GridInjective;
  if (isOp(s, Op::Add) || isOp(s, Op::Sub) || isOp(s, Op::Mul)) {
    Spread a = spread(s.operands[0]), b = spread(s.operands[1]);
    for (int k = 0; k < 2; ++k) {
      Spread inj = k == 0 ? a : b, other = k == 0 ? b : a;
      const Expr& factor = stripCasts(*s.operands[1 - k]);
      // i + u, u + i, i - u, u - i: a shift; i * c for a nonzero literal c: a scaling.
      if (isInjective(inj) && s.op != Op::Mul && other == Spread::Uniform) return inj;
      if (isInjective(inj) && s.op == Op::Mul && factor.kind == ExprKind::Number && factor.value != 0) return inj;
    }
  }
  return isVarying(e) ? Spread::Varying : Spread::Uniform;
}

// The definition of a local declared once with its value and never assigned, outside control that
// varies between threads.
const ThreadIndexing::Definition* ThreadIndexing::onlyDefinition(const Expr& e) const {
  auto it = e.kind == ExprKind::Var ? defs_.find(e.text) : defs_.end();
  if (it == defs_.end() || it->second.size() != 1) return nullptr;
  const Definition& d = it->second[0];
  return d.value && d.stmt->kind == StmtKind::Decl && !d.underVaryingControl ? &d : nullptr;
}

ExprPtr ThreadIndexing::onlyValue(const Expr& e) const {
  const Definition* d = onlyDefinition(e);
  return d ? d->value : nullptr;
}

// The value the local e holds where `use` reads it: its only definition's, or, for a local the
// forward sweep declares at the top (long x_offset = 0) and sets (or adds to from 0) once, outside
// loops, under guards that also enclose `use` (x_offset = idx * C under if (idx < N)), the value
// it sets. Guards and value read only locals defined once and parameters, so they mean the same
// at both places.
ExprPtr ThreadIndexing::valueAt(const Expr& e, const Stmt& use) const {
  if (const Definition* d = onlyDefinition(e)) return d->value;
  auto it = e.kind == ExprKind::Var ? defs_.find(e.text) : defs_.end();
  if (it == defs_.end() || it->second.size() != 2) return nullptr;
  const Definition &top = it->second[0], &set = it->second[1];
  auto around = guards_.find(&use);
  bool declaredAtTop = top.stmt->kind == StmtKind::Decl && top.value && top.value->kind == ExprKind::Number &&
                       !top.inLoop && guards_.at(top.stmt).empty();
  // x_offset = e, or x_offset += e from its 0 (a pointer parameter advanced in place: inp += idx * C)
  bool sets = set.stmt->kind == StmtKind::Assign &&
              (set.stmt->op == Op::Assign || (set.stmt->op == Op::Add && top.value->value == 0));
  if (!declaredAtTop || !sets || set.inLoop || around == guards_.end()) return nullptr;
  auto fixed = [&](const ExprPtr& x) {
    bool ok = true;
    walk(x, [&](const Expr& v) {
      if (v.kind == ExprKind::Var && defs_.count(v.text)) ok &= onlyDefinition(v) != nullptr;
    });
    return ok;
  };
  for (const ExprPtr& g : guards_.at(set.stmt)) {
    bool encloses =
        std::any_of(around->second.begin(), around->second.end(), [&](const ExprPtr& a) { return sameExpr(*a, *g); });
    if (!encloses || !fixed(g)) return nullptr;
  }
  return fixed(set.stmt->expr) ? set.stmt->expr : nullptr;
}

ExprPtr ThreadIndexing::resolvedAt(const ExprPtr& e, const Stmt& use) const {
  return refold(substitute(e, [&](const Expr& v) { return onlyDefinition(v) ? nullptr : valueAt(v, use); }));
}

ExprPtr ThreadIndexing::expandedAt(const ExprPtr& e, const Stmt& use) const {
  ExprPtr x = e;
  for (int round = 0, changed = 1; changed && round < 16; ++round) {  // (bounded: locals defined from each other)
    changed = 0;
    x = substitute(x, [&](const Expr& v) -> ExprPtr {
      auto it = v.kind == ExprKind::Var && !loops_.count(v.text) ? defs_.find(v.text) : defs_.end();
      if (it == defs_.end()) return nullptr;
      const Definition& only = it->second.front();
      ExprPtr value = it->second.size() == 1 && only.stmt->kind == StmtKind::Decl ? only.value : valueAt(v, use);
      changed |= value != nullptr ? 1 : 0;
      return value;
    });
  }
  return refold(x);
}

double ThreadIndexing::stride(const Expr& index) const {
  const Expr& e = stripCasts(index);
  if (ExprPtr value = onlyValue(e)) return stride(*value);
  if (isOp(e, Op::Add)) return stride(*e.operands[1]);
  if (!isOp(e, Op::Mul)) return 1;
  for (int k = 0; k < 2; ++k) {
    const Expr& factor = stripCasts(*e.operands[k]);
    Spread other = spread(e.operands[1 - k]);
    if (factor.kind == ExprKind::Number && factor.type.scalar == Scalar::Int &&
        (other == Spread::GridInjective || other == Spread::BlockInjective))
      return factor.value;
  }
  return 1;
}

namespace {

// e / 32 or e % 32 for an integer literal 32.
const Expr* byWarpSize(const Expr& e, Op op) {
  const Expr& s = stripCasts(e);
  if (!isOp(s, op)) return nullptr;
  const Expr& k = stripCasts(*s.operands[1]);
  return k.kind == ExprKind::Number && k.value == 32 ? &stripCasts(*s.operands[0]) : nullptr;
}

}  // namespace

// blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32 (a tile's meta_group_rank in the
// grid): the same in a warp's threads, different in any two warps of a one-dimensional grid.
// Also (blockIdx.x * blockDim.x + threadIdx.x) / 32, the same where blocks are whole warps
// (otherwise a block's last, partial warp shares its row with the next block's first threads).
bool ThreadIndexing::isWarpRow(const Expr& e, BlockShape& needs) const {
  const Expr& s = throughLocals(e);
  if (const Expr* global = byWarpSize(s, Op::Div); global && isThreadIndex(throughLocals(*global))) {
    needs.wholeWarps = true;
    return true;
  }
  if (!isOp(s, Op::Add)) return false;
  for (int k = 0; k < 2; ++k) {
    const Expr* thread = byWarpSize(*s.operands[k], Op::Div);
    const Expr& blocks = stripCasts(*s.operands[1 - k]);
    if (!thread || !isVar(*thread, "threadIdx.x") || !isOp(blocks, Op::Mul)) continue;
    for (int j = 0; j < 2; ++j) {
      const Expr* rounded = byWarpSize(*blocks.operands[j], Op::Div);
      bool warps = rounded && isOp(*rounded, Op::Add) && isVar(*rounded->operands[0], "blockDim.x") &&
                   stripCasts(*rounded->operands[1]).value == 31;
      if (warps && isVar(*blocks.operands[1 - j], "blockIdx.x")) return true;
    }
  }
  return false;
}

// threadIdx.x % 32: a thread's lane in its warp.
bool ThreadIndexing::isLane(const Expr& e) const {
  const Expr* thread = byWarpSize(throughLocals(e), Op::Rem);
  return thread && isVar(*thread, "threadIdx.x");
}

// e without casts, or the value of the local it names if that local is defined once, followed
// to the end: a row or column index written through locals is recognized like one written out.
const Expr& ThreadIndexing::throughLocals(const Expr& e) const {
  const Expr& s = stripCasts(e);
  const Definition* d = onlyDefinition(s);
  return d ? throughLocals(*d->value) : s;
}

// Where the values of a loop counter lie, in every loop that declares it: [0, C) for a uniform C
// (for (c = 0; c < C; ++c), for (c = lane; c < C; c += 32), or their reverses); `lanes` when every
// loop starts at the thread's lane and steps by a multiple of 32, so that two lanes of a warp
// never hold the same value; `threads` when every loop starts at threadIdx.x and steps by
// blockDim.x, so that two threads of a block never do.
ThreadIndexing::CounterRange ThreadIndexing::counterRange(const std::string& counter) const {
  auto it = loops_.find(counter);
  if (it == loops_.end() || defs_.at(counter).size() != 2 * it->second.size()) return {};
  CounterRange range{nullptr, true, true, 0};
  bool threadsUpTo = true;
  for (const Stmt* loop : it->second) {
    CountedLoop c;
    bool forward = asCountedLoop(*loop, c) || asReversedStridedLoop(*loop, c);
    ExprPtr low = c.first, bound = c.bound;
    // for (c = C - 1; c >= low; --c): the reverse of a loop of unit steps
    if (forward && !c.increasing && c.inclusive && !c.step && isOp(*c.first, Op::Sub) && isOne(c.first->operands[1])) {
      low = c.bound;
      bound = c.first->operands[0];
    } else if (forward && !c.increasing && c.inclusive && !c.step && c.first->kind == ExprKind::Number) {
      low = c.bound;  // for (k = 3; k >= low; --k): the reverse of a loop of unit steps to a literal
      bound = number(c.first->value + 1, c.first->type);
    } else if (forward && c.increasing && c.inclusive && !c.step && isOp(*c.bound, Op::Sub) &&
               isOne(c.bound->operands[1])) {
      bound = c.bound->operands[0];  // for (c = low; c <= C - 1; ++c): the reverse of a loop down from C - 1
    } else if (!forward || !c.increasing || c.inclusive) {
      return {};
    }
    const Expr& start = stripCasts(*low);
    bool lane = isLane(start);
    bool thread = isVar(throughLocals(start), "threadIdx.x");
    if (!lane && !thread && !(start.kind == ExprKind::Number && start.value == 0)) return {};
    if (isVarying(bound) || (range.bound && !sameExpr(stripCasts(*range.bound), stripCasts(*bound)))) return {};
    const Expr* step = c.step ? &stripCasts(*c.step) : nullptr;
    range.lanes &= lane && step && step->kind == ExprKind::Number && step->value > 0 && std::fmod(step->value, 32) == 0;
    range.threads &= thread && step && isVar(*step, "blockDim.x");
    bool literalStep = thread && step && step->kind == ExprKind::Number && step->value > 0 &&
                       (!range.threadsUpTo || step->value == range.threadsUpTo);
    threadsUpTo &= literalStep;
    if (literalStep) range.threadsUpTo = static_cast<unsigned>(step->value);
    range.bound = bound;
  }
  if (!threadsUpTo) range.threadsUpTo = 0;
  return range;
}

// For r * C + c (in either order, r * C perhaps through a local) with c a counter in [0, C) and r
// the thread's own row (injective over the grid), or with r a warp's row and c a lane counter: r * C.
ExprPtr ThreadIndexing::rowStart(const ExprPtr& e, const Stmt& use, BlockShape& needs, Row* shape) const {
  const Expr& s = stripCasts(*e);
  if (!oneDimensional_ || !isOp(s, Op::Add)) return nullptr;
  for (int k = 0; k < 2; ++k) {
    const Expr& counter = stripCasts(*s.operands[k]);
    CounterRange range = counter.kind == ExprKind::Var ? counterRange(counter.text) : CounterRange{};
    if (!range.bound) continue;
    const ExprPtr& bound = range.bound;
    const ExprPtr& start = s.operands[1 - k];
    ExprPtr value = stripCasts(*start).kind == ExprKind::Var ? valueAt(stripCasts(*start), use) : start;
    const Expr& row = value ? stripCasts(*value) : stripCasts(*start);
    if (!isOp(row, Op::Mul)) continue;
    for (int j = 0; j < 2; ++j) {
      // A row of its own (the thread's, of all its columns), a warp's (its lanes' columns), or a
      // block's (its threads' columns).
      const ExprPtr& r = row.operands[j];
      if (!sameExpr(stripCasts(*row.operands[1 - j]), stripCasts(*bound))) continue;
      BlockShape rowNeeds;
      bool blockRow = isVar(throughLocals(*r), "blockIdx.x");
      if (range.threadsUpTo && !range.threads && blockRow) rowNeeds.maxThreads = range.threadsUpTo;
      bool own = spread(r) == Spread::GridInjective || (range.lanes && isWarpRow(*r, rowNeeds)) ||
                 ((range.threads || range.threadsUpTo) && blockRow);
      if (!own) continue;
      needs.add(rowNeeds);
      if (shape) *shape = Row{bound, !range.lanes && spread(r) != Spread::GridInjective};
      return value ? value : start;
    }
  }
  return nullptr;
}

}  // namespace adjoint::analysis
