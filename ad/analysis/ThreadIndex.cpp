#include "ad/analysis/ThreadIndex.h"

#include "ad/analysis/Activity.h"

namespace adjoint::analysis {

using namespace ir;

namespace {

const Expr& stripCasts(const Expr& e) { return e.kind == ExprKind::Cast ? stripCasts(*e.operands[0]) : e; }

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
    if (e.kind != ExprKind::Var) return;
    for (const char* object : {"threadIdx.", "blockIdx.", "blockDim.", "gridDim."})
      if (e.text.rfind(object, 0) == 0 && e.text.back() != 'x') oneDimensional_ = false;
  });
  std::vector<ExprPtr> conditions;
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
        Spread s = isGlobalThreadIndex(*defs[0].value) ? Spread::GridInjective : spread(defs[0].value);
        if (s == Spread::GridInjective) changed |= gridInjective_.insert(name).second;
        if (s == Spread::BlockInjective) changed |= blockInjective_.insert(name).second;
      } else if (isGridStrideCounter(name)) {
        changed |= gridInjective_.insert(name).second;
      }
    }
  }
}

void ThreadIndexing::collect(const StmtList& body, std::vector<ExprPtr>& conditions) {
  auto define = [&](const std::string& name, const ExprPtr& value, const Stmt* s) {
    bool varyingControl = false;
    for (const ExprPtr& c : conditions) varyingControl |= isVarying(c);
    defs_[name].push_back({value, varyingControl, s});
  };
  for (const StmtPtr& s : body) {
    if (s->kind == StmtKind::Decl && s->expr) define(s->name, s->expr, s.get());
    if (s->kind == StmtKind::Decl && !s->expr) define(s->name, nullptr, s.get());
    if (s->kind == StmtKind::Assign && s->lhs->kind == ExprKind::Var)
      define(s->lhs->text, s->op == Op::Assign ? s->expr : binary(s->op, s->lhs, s->expr), s.get());
    if (s->init) collect({s->init}, conditions);
    bool conditional = s->kind == StmtKind::If || isLoop(s->kind);
    if (conditional) conditions.push_back(s->expr);
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

// for (i = <grid-injective>; ...; i += blockDim.x * gridDim.x): the indices of different
// threads never meet, in any iteration.
bool ThreadIndexing::isGridStrideCounter(const std::string& v) const {
  auto it = defs_.find(v);
  if (it == defs_.end() || it->second.size() != 2) return false;
  const Definition& init = it->second[0];
  const Definition& step = it->second[1];
  if (!init.value || init.stmt->kind != StmtKind::Decl || init.underVaryingControl ||
      step.stmt->kind != StmtKind::Assign)
    return false;
  bool injectiveStart = isGlobalThreadIndex(*init.value) || gridInjective_.count(stripCasts(*init.value).text);
  return injectiveStart && step.stmt->op == Op::Add && isProduct(*step.stmt->expr, "blockDim.x", "gridDim.x");
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

}  // namespace adjoint::analysis
