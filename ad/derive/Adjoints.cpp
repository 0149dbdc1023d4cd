#include "ad/derive/Adjoints.h"

#include <algorithm>

#include "ad/analysis/Activity.h"
#include "ad/ir/Diagnostic.h"
#include "ad/ir/Naming.h"
#include "ad/ir/Printer.h"
#include "ad/rules/Rules.h"

namespace adjoint::derive {

using namespace ir;

namespace {

// Pointer parameters of `callee` it writes. The frontend inlines such calls (their stores are then
// the caller's, saved and undone as its own are); a call left is one it could not inline, whose
// stores the caller's reverse sweep would not see.
std::set<std::string> writtenArrays(const Function& callee) {
  std::set<std::string> written;
  walk(callee.body, [&](const Stmt& s) {
    if (s.kind == StmtKind::Assign) written.insert(rootName(*s.lhs));
  });
  std::set<std::string> arrays;
  for (const Param& p : callee.params)
    if (p.type.pointer && written.count(p.name)) arrays.insert(p.name);
  return arrays;
}

// The factors of a product tree, through its multiplications (s2 * s2 * s2: s2, s2, s2).
void collectFactors(const ExprPtr& e, std::vector<ExprPtr>& out) {
  if (!isOp(*e, Op::Mul)) {
    out.push_back(e);
    return;
  }
  collectFactors(e->operands[0], out);
  collectFactors(e->operands[1], out);
}

// Whether two evaluations of `e` give one value: no draw of the program's own code (Verbatim),
// no value taken off a tape, no call.
bool evaluatesAlike(const Expr& e) {
  if (e.kind == ExprKind::Verbatim || e.kind == ExprKind::Pop || e.kind == ExprKind::Call) return false;
  return std::all_of(e.operands.begin(), e.operands.end(), [](const ExprPtr& op) { return evaluatesAlike(*op); });
}

// `value` as the arithmetic of type `t` computes it: 3.0f * 0.044715f is 0.134145f.
double roundedTo(const Type& t, double value) {
  return t.element().scalar == Scalar::Float ? static_cast<float>(value) : value;
}

}  // namespace

Adjoints::Adjoints(const Module& m, const Function& f, const std::set<std::string>& wrt, Requests& q, ExprPtr seed)
    : m_(m), f_(f), q_(q), seed_(std::move(seed)) {
  for (const Param* p : differentiatedParams(f, wrt)) seeds_.insert(p->name);
  const std::set<std::string>& seeds = seeds_;
  for (const std::string& v : analysis::variedVariables(f, seeds, m)) active_.insert(v);
  walkExprs(f.body, [&](const Expr& e) {
    if (isOp(e, Op::AddressOf)) addressed_.insert(rootName(*e.operands[0]));
  });
  walk(f.body, [&](const Stmt& s) {
    if (s.kind == StmtKind::Decl) locals_[s.name] = s.type;
    if (s.kind == StmtKind::Assign && s.lhs->kind == ExprKind::Var) {
      const Param* p = f.param(s.lhs->text);
      if (p && !p->type.pointer && active_.count(p->name) && seeds.count(p->name)) localParamAdjoints_.insert(p->name);
    }
    // A scalar parameter read in a loop gets its adjoint summed in a local, which stays in a
    // register, rather than through the caller's pointer, which may alias the arrays.
    if (isLoop(s.kind))
      for (const std::string& v : analysis::readVariables(s.body))
        if (const Param* p = f.param(v); p && p->type.isFloating() && !p->type.pointer && seeds.count(v))
          localParamAdjoints_.insert(v);
  });
  // Active means floating (or a struct of floating fields). A scalar parameter outside `wrt`
  // that the body assigns from active values is active too: its adjoint lives in a local.
  for (auto it = active_.begin(); it != active_.end();) {
    const Param* p = f.param(*it);
    bool floating = p ? p->type.isDifferentiable() : locals_.count(*it) && locals_[*it].isFloating();
    bool hasBar = !p || seeds.count(*it) || !p->type.pointer;
    it = floating && hasBar ? std::next(it) : active_.erase(it);
  }
  for (auto it = localParamAdjoints_.begin(); it != localParamAdjoints_.end();)
    it = active_.count(*it) ? std::next(it) : localParamAdjoints_.erase(it);
}

bool Adjoints::readsActive(const ExprPtr& e) const {
  switch (e->kind) {
    // A floating variable, array, struct or struct field with an adjoint (integer fields have none).
    case ExprKind::Var:
      return active_.count(e->text) && (e->type.isFloating() || e->type.isStruct());
    case ExprKind::Index:
    case ExprKind::Member:
      return active_.count(rootName(*e)) && e->type.isFloating();
    default:
      for (const ExprPtr& op : e->operands)
        if (readsActive(op)) return true;
      return false;
  }
}

ExprPtr Adjoints::arrayBar(const Expr& array) const {
  if (array.kind != ExprKind::Var)
    throw InternalError("an indexed expression whose array is not a variable: " + print(array));
  Type t = array.type;
  return var(naming::adjointOf(array.text), t.arraySize > 0 || t.shared ? t : t.writableIndexed());
}

ExprPtr Adjoints::barOf(const Expr& lvalue) const {
  if (lvalue.kind == ExprKind::Index) return index(arrayBar(*lvalue.operands[0]), lvalue.operands[1]);
  if (lvalue.kind == ExprKind::Member) return member(arrayBar(*lvalue.operands[0]), lvalue.text);
  const Param* p = f_.param(lvalue.text);
  if (p && !seeds_.count(p->name)) return var(naming::adjointOf(p->name), p->type);  // a local adjoint
  if (p && localParamAdjoints_.count(p->name)) return var(naming::accumulatorOf(p->name), p->type);
  if (p) return deref(var(naming::adjointOf(p->name), p->type.pointerTo(false)));
  return var(naming::adjointOf(lvalue.text), lvalue.type);
}

void Adjoints::propagate(const ExprPtr& e, const ExprPtr& adj, StmtList& out) {
  if (!readsActive(e) || isZero(adj)) return;
  switch (e->kind) {
    case ExprKind::Var:
    case ExprKind::Index:
    case ExprKind::Member:
      // x_bar += adj: the read of x receives the adjoint of the expression it feeds.
      out.push_back(assign(barOf(*e), Op::Add, adj));
      return;
    case ExprKind::Unary:
      if (e->op == Op::Neg) propagate(e->operands[0], neg(adj), out);
      return;
    case ExprKind::Cast:
      propagate(e->operands[0], cast(e->operands[0]->type, adj), out);
      return;
    case ExprKind::Select: {
      StmtList a, b;
      propagate(e->operands[1], adj, a);
      propagate(e->operands[2], adj, b);
      if (a.empty())
        out.push_back(ifStmt(unary(Op::Not, e->operands[0]), b));
      else
        out.push_back(ifStmt(e->operands[0], a, b));
      return;
    }
    case ExprKind::Binary:
      if (e->op == Op::Div) {
        propagateQuotient(e, adj, nullptr, out);
        return;
      }
      if (e->op == Op::Mul && propagatePower(e, adj, out)) return;
      for (int i = 0; i < 2; ++i) {
        ExprPtr partial = rules::operatorPartial(e->op, e->operands[0], e->operands[1], i);
        if (partial) propagate(e->operands[i], mul(adj, partial), out);
      }
      return;
    case ExprKind::Call:
      propagateCall(e, adj, nullptr, out);
      return;
    default:
      return;
  }
}

// q = a / b: a_bar += q_bar / b;  b_bar -= q_bar / b * q  (dq/db = -a / b^2 = -q / b). Both partials
// share q_bar / b (common-factors names it), and q is read from `result`, the local holding it,
// where there is one: one division for both instead of three.
void Adjoints::propagateQuotient(const ExprPtr& e, const ExprPtr& adj, const ExprPtr& result, StmtList& out) {
  ExprPtr over = div(adj, e->operands[1]);
  propagate(e->operands[0], over, out);
  propagate(e->operands[1], neg(mul(over, result ? result : e)), out);
}

// A product that repeats a factor (s6 = s2 * s2 * s2): the power rule, d(x^k * r)/dx = k * x^(k-1) * r,
// once for each distinct factor, rather than one partial for each occurrence of x. The partial is the
// product of the other factors in the forward's order, so that the compiler shares it with the
// forward's own (s2 * s2), its literals folded into k. Returns false for a product without a repeated factor.
bool Adjoints::propagatePower(const ExprPtr& e, const ExprPtr& adj, StmtList& out) {
  std::vector<ExprPtr> factors;
  collectFactors(e, factors);
  std::vector<std::pair<size_t, int>> distinct;  // first occurrence, how many times
  for (size_t i = 0; i < factors.size(); ++i) {
    auto same = std::find_if(distinct.begin(), distinct.end(), [&](const auto& d) {
      return sameExpr(*factors[d.first], *factors[i]) && evaluatesAlike(*factors[i]);
    });
    if (same == distinct.end())
      distinct.emplace_back(i, 1);
    else
      ++same->second;
  }
  if (distinct.size() == factors.size()) return false;
  for (const auto& [first, k] : distinct) {
    double coefficient = k;  // with the literal factors folded in where that is exact (0.5 * s * s: s)
    ExprPtr others;
    for (size_t i = 0; i < factors.size(); ++i) {
      if (i == first) continue;
      if (factors[i]->kind == ExprKind::Number) {
        long double exact = static_cast<long double>(coefficient) * factors[i]->value;
        double folded = roundedTo(e->type, static_cast<double>(exact));
        if (folded == exact) {
          coefficient = folded;
          continue;
        }
      }
      others = others ? mul(others, factors[i]) : factors[i];
    }
    ExprPtr partial = number(coefficient, e->type);
    propagate(factors[first], mul(adj, others ? mul(partial, others) : partial), out);
  }
  return true;
}

// `result`: a variable holding the call's value, for a rule that reads it; null: the call itself.
void Adjoints::propagateCall(const ExprPtr& e, const ExprPtr& adj, const ExprPtr& result, StmtList& out) {
  const Rule* rule = m_.rule(e->text);
  if (!rule) return;  // a nondifferentiable function: its value is a constant
  if (rule->isLinear()) {
    // A shuffle's pullback, computed into a local first, by every lane that ran the shuffle,
    // before any branch of the propagation below.
    std::string name = naming::adjointOf("shuffled" + std::to_string(++shuffles_));
    out.push_back(decl(name, adj->type, rules::linearPullback(*rule, *e, adj)));
    propagate(e->operands[static_cast<size_t>(rule->linearArgument)], var(name, adj->type), out);
    return;
  }
  for (size_t i = 0; i < e->operands.size(); ++i) {
    if (!readsActive(e->operands[i])) continue;
    ExprPtr partial = rules::callPartial(*rule, *e, i, result);
    if (!partial)
      throw Diagnostic(at_, "no derivative of '" + e->text + "' with respect to argument " + std::to_string(i + 1), "");
    propagate(e->operands[i], mul(adj, partial), out);
  }
}

std::string Adjoints::resultVariable(const Stmt& s) const {
  bool declared = s.kind == StmtKind::Decl && s.expr && !s.type.isIndexed();
  bool assigned = s.kind == StmtKind::Assign && s.op == Op::Assign;
  if (!declared && !assigned) return {};
  // A scalar local, or an element of a local array (h[k] = tanh(a)).
  const Expr* lvalue = declared ? nullptr : s.lhs.get();
  bool element = lvalue && lvalue->kind == ExprKind::Index && lvalue->operands[0]->kind == ExprKind::Var;
  if (lvalue && lvalue->kind != ExprKind::Var && !element) return {};
  std::string v = declared ? s.name : rootName(*lvalue);
  auto local = locals_.find(v);
  if (local == locals_.end() || !local->second.isFloating() ||
      (element ? !local->second.isArrayLocal() : local->second.isIndexed()))
    return {};
  const ExprPtr& value = s.expr;
  if (!active_.count(v) || addressed_.count(v) || analysis::readVariables(value).count(v) ||
      (element && analysis::readVariables(lvalue->operands[1]).count(v)))
    return {};
  if (isOp(*value, Op::Div)) return readsActive(value->operands[1]) ? v : std::string();
  const Rule* rule = rules::resultReadingRule(m_, *value);
  if (!rule) return {};
  for (size_t i = 0; i < value->operands.size(); ++i)
    if (readsActive(value->operands[i]) && rule->partialReadsResult(i)) return v;
  return {};
}

// `readsResult`: the reverse reads lhs's value after the assignment for the call's result.
void Adjoints::assignment(const ExprPtr& lhs, Op op, const ExprPtr& rhs, bool zeroAfter, bool readsResult,
                          StmtList& out) {
  if (!active_.count(rootName(*lhs)) || !lhs->type.isFloating()) return;
  ExprPtr bar = barOf(*lhs);
  ExprPtr zero = number(0, lhs->type);
  bool isCall = rhs->kind == ExprKind::Call && m_.find(rhs->text);
  bool rhsReadsItself = analysis::readVariables(rhs).count(rootName(*lhs)) > 0;
  if (op == Op::Add || op == Op::Sub) {
    // v += e: v_bar flows unchanged into e (negated for -=), and v keeps its adjoint. An e that
    // reads v adds into v_bar: it receives v_bar as it was before, from a copy.
    StmtList inner;
    ExprPtr adj = bar;
    if (rhsReadsItself) {
      std::string name = naming::updatedAdjointOf(rootName(*lhs));
      inner.push_back(decl(name, lhs->type.element(), bar));
      adj = var(name, lhs->type.element());
    }
    if (op == Op::Sub) adj = neg(adj);
    if (isCall)
      callAdjoint(*rhs, adj, inner);
    else
      propagate(rhs, adj, inner);
    if (rhsReadsItself)
      out.push_back(block(inner));
    else
      out.insert(out.end(), inner.begin(), inner.end());
    return;
  }
  ExprPtr value = op == Op::Assign ? rhs : binary(op, lhs, rhs);
  if (op == Op::Assign && !rhsReadsItself) {
    // v = e: e receives v_bar; the old v is dead, so its adjoint restarts at 0.
    if (isCall)
      callAdjoint(*value, bar, out);
    else if (readsResult && isOp(*value, Op::Div))
      propagateQuotient(value, bar, lhs, out);
    else if (readsResult)
      propagateCall(value, bar, lhs, out);
    else
      propagate(value, bar, out);
    if (zeroAfter) out.push_back(assign(bar, Op::Assign, zero));
    return;
  }
  // v = e(v), v *= e: take v_bar first, since propagating through e adds to the old v's adjoint.
  std::string name = naming::updatedAdjointOf(rootName(*lhs));
  StmtList inner{decl(name, lhs->type.element(), bar), assign(bar, Op::Assign, zero)};
  if (isCall)
    callAdjoint(*value, var(name, lhs->type), inner);
  else if (readsResult && op == Op::Assign)  // K_vjp_from_output: lhs holds the call's result
    propagateCall(value, var(name, lhs->type), lhs, inner);
  else
    propagate(value, var(name, lhs->type), inner);
  out.push_back(block(inner));
}

void Adjoints::callAdjoint(const Expr& c, const ExprPtr& seed, StmtList& out) {
  const Function* callee = m_.find(c.text);
  if (!callee) return;  // a math function evaluated for nothing
  std::set<std::string> wrt;
  std::set<std::string> written = writtenArrays(*callee);
  for (size_t i = 0; i < callee->params.size(); ++i) {
    const Param& p = callee->params[i];
    if (!p.type.isDifferentiable() || p.nondifferentiable || !readsActive(c.operands[i])) continue;
    if (p.type.pointer && pointerArg(c.operands[i]).array->kind != ExprKind::Var)
      throw Diagnostic(at_, "an array argument to '" + callee->name + "' must point into an array variable",
                       "pass the array itself, or an offset into it (x + i)");
    if (written.count(p.name))
      throw Diagnostic(at_,
                       "'" + callee->name + "' writes into its array parameter '" + p.name +
                           "' in a call that cannot be inlined, whose stores the gradient could not undo",
                       "call it in a statement of its own, or return the values and store them here");
    wrt.insert(p.name);
  }
  bool seeded = callee->returnsFloating() && seed && !isZero(seed);
  if (wrt.empty()) return;
  std::string name = q_.need(*callee, wrt, Mode::Reverse);
  std::vector<ExprPtr> args = c.operands;
  if (callee->returnsFloating()) args.push_back(seeded ? seed : number(0, callee->returnType));
  StmtList inner, after;
  for (const Param* p : differentiatedParams(*callee, wrt)) {
    size_t i = static_cast<size_t>(p - callee->params.data());
    if (p->type.pointer || p->type.isStruct()) {
      PointerArg at = pointerArg(c.operands[i]);  // x + k: x_bar + k (arrays were checked above)
      if (at.array->kind != ExprKind::Var)
        throw Diagnostic(at_, "a struct argument to '" + callee->name + "' must be a variable",
                         "pass the struct parameter itself");
      args.push_back(atOffsetOf(at, arrayBar(*at.array)));
      continue;
    }
    std::string tmp = naming::adjointOf(callee->name + "_" + p->name);
    inner.push_back(decl(tmp, p->type, number(0, p->type)));
    args.push_back(unary(Op::AddressOf, var(tmp, p->type)));
    propagate(c.operands[i], var(tmp, p->type), after);
  }
  inner.push_back(eval(call(name, args, Type::of(Scalar::Void))));
  inner.insert(inner.end(), after.begin(), after.end());
  if (inner.size() == 1)
    out.push_back(inner.front());
  else
    out.push_back(block(inner));
}

void Adjoints::reverseOf(const Stmt& s, bool inLoop, StmtList& out) {
  if (s.loc.line) at_ = s.loc;
  switch (s.kind) {
    case StmtKind::Decl: {
      ExprPtr v = var(s.name, s.type);
      if (s.expr) assignment(v, Op::Assign, s.expr, inLoop, readsResultOf(s), out);
      for (size_t k = s.args.size(); k-- > 0;)
        if (active_.count(s.name))
          propagate(s.args[k], index(barOf(*v), number(static_cast<double>(k), Type::integer())), out);
      return;
    }
    case StmtKind::Assign:
      assignment(s.lhs, s.op, s.expr, true, readsResultOf(s), out);
      return;
    case StmtKind::Eval:
      // A barrier of the forward is one of the reverse, where the adjoints flow back across it.
      if (isBarrier(*s.expr)) {
        out.push_back(eval(s.expr));
        return;
      }
      // A vector grown by the forward shrinks back: its size in the reverse is the forward's.
      if (isAppend(*s.expr)) out.push_back(eval(dropLastElement(s.expr->operands[0])));
      // One the forward shrank grows back, its adjoint as long as it: the reverse of the overwrite
      // before the drop (frontend/Containers.cpp) then restores the value and zeroes its adjoint.
      if (isDrop(*s.expr)) {
        const ExprPtr& vector = s.expr->operands[0];
        out.push_back(eval(appendElement(vector)));
        if (active_.count(vector->text)) {
          ExprPtr bar = barOf(*vector);
          out.push_back(ifStmt(binary(Op::Lt, containerSize(bar), containerSize(vector)), {eval(appendElement(bar))}));
        }
      }
      if (s.expr->kind == ExprKind::Member || s.expr->kind == ExprKind::Verbatim) return;
      callAdjoint(*s.expr, nullptr, out);
      return;
    case StmtKind::Return:
      if (s.expr && f_.returnsFloating()) {
        if (s.expr->kind == ExprKind::Call && m_.find(s.expr->text))
          callAdjoint(*s.expr, seed_, out);
        else
          propagate(s.expr, seed_, out);
      }
      return;
    default:
      return;
  }
}

StmtList Adjoints::declarations() const {
  StmtList out;
  for (const std::string& v : active_) {
    if (const Param* p = f_.param(v)) {
      if (!seeds_.count(v)) out.push_back(decl(naming::adjointOf(v), p->type, number(0, p->type)));
      continue;
    }
    const Type& t = locals_.at(v);
    StmtPtr d = decl(naming::adjointOf(v), t, t.isArrayLocal() || t.shared ? nullptr : number(0, t));
    if (t.isContainer()) d->args = {containerSize(var(v, t))};  // zeros, as many as v has
    out.push_back(d);
  }
  for (const std::string& p : localParamAdjoints_)
    out.push_back(decl(naming::accumulatorOf(p), f_.param(p)->type, number(0, f_.param(p)->type)));
  return out;
}

StmtList Adjoints::finish() const {
  StmtList out;
  for (const std::string& p : localParamAdjoints_)
    out.push_back(assign(deref(var(naming::adjointOf(p), f_.param(p)->type.pointerTo(false))), Op::Add,
                         var(naming::accumulatorOf(p), f_.param(p)->type)));
  return out;
}

}  // namespace adjoint::derive
