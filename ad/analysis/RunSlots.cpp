#include "ad/analysis/RunSlots.h"

#include "ad/analysis/Activity.h"

namespace adjoint::analysis {

using namespace ir;

RunSlots::RunSlots(const Function& kernel, const ThreadIndexing& threads) : threads_(threads) {
  std::set<std::string> assigned = assignedVariables(kernel.body);
  for (const Param& p : kernel.params)
    if (!p.type.pointer && !assigned.count(p.name)) invariant_.insert(p.name);
  // The launch's sizes, which the launcher knows as block.x and grid.x.
  invariant_.insert({"blockDim.x", "gridDim.x"});
  std::vector<Around> around;
  collect(kernel.body, around);
}

void RunSlots::collect(const StmtList& body, std::vector<Around>& around) {
  for (const StmtPtr& s : body) {
    loops_[s.get()] = around;
    bool loop = s->kind == StmtKind::For || s->kind == StmtKind::While || s->kind == StmtKind::DoWhile;
    if (loop) around.push_back(iterations(*s));
    collect(s->body, around);
    collect(s->elseBody, around);
    if (loop) around.pop_back();
  }
}

bool RunSlots::isInvariant(const ExprPtr& e) const {
  for (const std::string& v : readVariables(e))
    if (!invariant_.count(v)) return false;
  return true;
}

// The counter v of a counted loop of a positive step s takes values from lo by s, below past: run
// k of the loop is at (v - lo) / s, of (past - lo + s - 1) / s runs. Where lo or past differs
// between threads but v keeps to [0, B): v / s, of (B + s - 1) / s (the runs of one thread are s
// apart, so each has its own v / s, and v < B keeps it below (B + s - 1) / s).
RunSlots::Around RunSlots::iterations(const Stmt& loop) const {
  CountedLoop l;
  if (!asCountedLoop(loop, l) && !asReversedStridedLoop(loop, l)) return {false, nullptr, nullptr};
  Type wide = Type::integer("long long");
  ExprPtr one = number(1, wide);
  ExprPtr step = l.step ? cast(wide, l.step) : one;
  const Expr& literal = stripCasts(*step);
  if (!isInvariant(step) || (literal.kind == ExprKind::Number && literal.value <= 0)) return {false, nullptr, nullptr};
  ExprPtr counter = cast(wide, var(l.counter, l.counterType));
  auto runs = [&](const ExprPtr& from, const ExprPtr& past) { return div(sub(add(sub(past, from), step), one), step); };
  // (The ends are moved by one in the loop's type, where C - 1 + 1 folds to C.)
  auto next = [](const ExprPtr& e) { return add(e, number(1, e->type)); };
  ExprPtr lo = cast(wide, l.increasing ? l.first : l.inclusive ? l.bound : next(l.bound));
  ExprPtr past = cast(wide, !l.increasing ? next(l.first) : l.inclusive ? next(l.bound) : l.bound);
  if (isInvariant(lo) && isInvariant(past)) return {true, div(sub(counter, lo), step), runs(lo, past)};
  ExprPtr range = threads_.counterRange(l.counter).bound;
  // A grid-stride loop's counter starts at the thread's index: it keeps to [0, past) as well.
  if (!range && threads_.isThreadIndex(*lo) && isInvariant(past)) range = past;
  if (range && isInvariant(range)) return {true, div(counter, step), runs(number(0, wide), cast(wide, range))};
  return {false, nullptr, nullptr};
}

// The runs of a thread numbered over the loops around s, outermost first; then the slot
// run * threads + thread, so that the threads of a warp take neighbouring slots in each run.
std::optional<RunSlot> RunSlots::of(const Stmt& s) const {
  auto found = loops_.find(&s);
  if (found == loops_.end()) return std::nullopt;
  Type wide = Type::integer("long long");
  Type u = Type::integer("unsigned", true);
  ExprPtr run = number(0, wide), perThread = number(1, wide);
  for (const Around& a : found->second) {
    if (!a.known) return std::nullopt;
    run = add(mul(run, a.trips), a.iteration);
    perThread = mul(perThread, a.trips);
  }
  ExprPtr threads = mul(cast(wide, var("gridDim.x", u)), var("blockDim.x", u));
  ExprPtr thread = add(mul(cast(wide, var("blockIdx.x", u)), var("blockDim.x", u)), var("threadIdx.x", u));
  return RunSlot{add(mul(run, threads), thread), perThread};
}

}  // namespace adjoint::analysis
