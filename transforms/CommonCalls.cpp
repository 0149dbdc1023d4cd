#include "transforms/CommonCalls.h"

#include <algorithm>
#include <set>

#include "ad/analysis/Activity.h"
#include "ad/ir/Names.h"
#include "ad/ir/Naming.h"
#include "ad/ir/Rewriter.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

bool isSimple(const Stmt& s) {
  return s.kind == StmtKind::Assign || s.kind == StmtKind::Decl || s.kind == StmtKind::Eval;
}

int count(const ExprPtr& e, const Expr& target) {
  int n = 0;
  walk(e, [&](const Expr& x) { n += sameExpr(x, target); });
  return n;
}

int count(const Stmt& s, const Expr& target) {
  int n = count(s.expr, target);
  for (const ExprPtr& a : s.args) n += count(a, target);
  if (s.lhs)
    for (const Expr* e = s.lhs.get(); e->kind == ExprKind::Index; e = e->operands[0].get())
      n += count(e->operands[1], target);
  return n;
}

ExprPtr replace(const ExprPtr& e, const Expr& target, const ExprPtr& with) {
  if (!e) return e;
  if (sameExpr(*e, target)) return with;
  if (e->operands.empty()) return e;
  auto copy = std::make_shared<Expr>(*e);
  for (ExprPtr& op : copy->operands) op = replace(op, target, with);
  return copy;
}

std::set<std::string> writes(const Stmt& s) {
  if (s.kind == StmtKind::Assign) return {rootName(*s.lhs)};
  if (s.kind == StmtKind::Decl) return {s.name};
  return {};
}

// What a sharer looks for: pure calls, factors of derivatives, or elements of adjoint arrays.
enum class Shared { Calls, Factors, Seeds };

// The first adjoint or tangent that e reads, or nothing.
const Expr* firstDerivative(const Expr& e) {
  if (e.kind == ExprKind::Var && (naming::isAdjoint(e.text) || naming::isTangent(e.text))) return &e;
  for (const ExprPtr& op : e.operands)
    if (const Expr* found = firstDerivative(*op)) return found;
  return nullptr;
}

// A product or quotient that reads an adjoint or a tangent: the factor the partial derivatives of
// one forward statement have in common (d1_bar / vol).
bool isFactor(const Expr& e) {
  return e.kind == ExprKind::Binary && (e.op == Op::Mul || e.op == Op::Div) && firstDerivative(e);
}

// Whether evaluating e loads from memory: an element, a dereference, a field through a pointer.
bool loads(const ExprPtr& e) {
  bool found = false;
  walk(e, [&](const Expr& x) {
    found |= x.kind == ExprKind::Index || (x.kind == ExprKind::Unary && x.op == Op::Deref) ||
             (x.kind == ExprKind::Member && x.operands[0]->type.pointer);
  });
  return found;
}

// Whether e hands out a pointer into `array` (&array[k], the array itself) that a call may write
// through; loads of its elements do not.
bool pointsInto(const Expr& e, const std::string& array) {
  if (e.kind == ExprKind::Unary && e.op == Op::AddressOf) return reads(e.operands[0], array);
  if (e.kind == ExprKind::Var) return e.text == array;
  if (e.kind == ExprKind::Index && e.operands[0]->kind == ExprKind::Var) return pointsInto(*e.operands[1], array);
  for (const ExprPtr& op : e.operands)
    if (pointsInto(*op, array)) return true;
  return false;
}

// Visits the subexpressions of e that may be computed before the statement: those every
// evaluation of e evaluates, and under ?:, && and || those that load nothing. A load under a
// guard (i < n ? expf(x[i]) : 0) would otherwise run where its guard fails, past an array's end;
// math on values alone may run speculatively.
template <typename Visit>
void walkHoistable(const ExprPtr& e, bool guarded, Visit&& visit) {
  if (!e || (guarded && loads(e))) return;
  visit(*e);
  bool shortCircuits = e->kind == ExprKind::Binary && (e->op == Op::And || e->op == Op::Or);
  for (size_t k = 0; k < e->operands.size(); ++k)
    walkHoistable(e->operands[k], guarded || (k > 0 && (shortCircuits || e->kind == ExprKind::Select)), visit);
}

class Sharer : public Rewriter {
 public:
  Sharer(const Function& f, const Module& m, Shared what) : module_(m), names_(f), what_(what) {
    for (const Param& p : f.params)
      if (p.role == Role::Adjoint && p.type.pointer) adjointArrays_.insert(p.name);
  }

 private:
  void rewriteList(StmtList& body) override {
    for (size_t i = 0; i < body.size(); ++i) {
      if (!isSimple(*body[i])) continue;
      while (shareOne(body, i)) ++i;  // the new declaration sits at i; its statement moved to i + 1
    }
  }

  const Module& module_;
  NameSet names_;
  Shared what_;
  std::set<std::string> adjointArrays_;  // the adjoints the caller passes (not shared memory's)

  bool isCandidate(const Expr& e) const {
    if (what_ == Shared::Seeds)
      return e.kind == ExprKind::Index && e.operands[0]->kind == ExprKind::Var &&
             adjointArrays_.count(e.operands[0]->text);
    return what_ == Shared::Calls ? module_.isPureCall(e) : isFactor(e);
  }

  std::string fresh(const Expr& e) {
    if (what_ == Shared::Seeds) {  // y_bar[i] -> y_bar_i, y_bar[row * C + c] -> y_bar_element
      const Expr& at = *e.operands[1];
      return names_.fresh(e.operands[0]->text + (at.kind == ExprKind::Var ? "_" + at.text : "_element"));
    }
    if (what_ == Shared::Factors) {
      // d1_bar / vol -> d1_bar_over_vol, y_bar * w -> y_bar_w; otherwise named by its first adjoint.
      const Expr &a = *e.operands[0], &b = *e.operands[1];
      if (a.kind == ExprKind::Var && b.kind == ExprKind::Var)
        return names_.fresh(a.text + (e.op == Op::Div ? "_over_" : "_") + b.text);
      return names_.fresh(firstDerivative(e)->text + "_factor");
    }
    // std::exp -> exp_..., __expf -> expf_...
    std::string base = e.text.rfind("std::", 0) == 0 ? e.text.substr(5) : e.text;
    base.erase(0, base.find_first_not_of('_'));
    const Expr& arg = *e.operands[0];
    base += arg.kind == ExprKind::Var ? "_" + arg.text : "_value";
    return names_.fresh(base);
  }

  // Shares the first candidate of body[i] that later statements repeat; returns whether it did.
  bool shareOne(StmtList& body, size_t i) {
    std::vector<const Expr*> calls;
    walkHoistable(body[i]->expr, false, [&](const Expr& x) {
      if (isCandidate(x)) calls.push_back(&x);
    });
    // The innermost factor first (d1_bar / vol before d1_bar / vol * maturity): the one most
    // statements share.
    if (what_ == Shared::Factors) std::reverse(calls.begin(), calls.end());
    for (const Expr* c : calls) {
      ExprPtr target = std::make_shared<Expr>(*c);
      std::set<std::string> inputs = analysis::readVariables(target);
      size_t end = i;  // statements [i, end] see the same value of the call
      int uses = 0, statements = 0;
      for (size_t j = i; j < body.size() && isSimple(*body[j]); ++j) {
        int here = count(*body[j], *target);
        uses += here;
        statements += here > 0;
        end = j;
        bool changesInputs = false;
        for (const std::string& w : writes(*body[j])) changesInputs |= inputs.count(w) > 0;
        // (other threads may store into an adjoint array between barriers; a call given a pointer into
        // it, such as an atomicAdd, may store into it)
        if (what_ == Shared::Seeds && body[j]->expr)
          changesInputs |= isBarrier(*body[j]->expr) || pointsInto(*body[j]->expr, target->operands[0]->text);
        if (changesInputs) break;
      }
      // A factor or an element is named when several statements share it; a call, when it is evaluated twice.
      if (uses < 2 || (what_ != Shared::Calls && statements < 2)) continue;
      std::string name = fresh(*target);
      ExprPtr v = var(name, target->type);
      for (size_t j = i; j <= end; ++j) {
        auto copy = std::make_shared<Stmt>(*body[j]);
        copy->expr = replace(copy->expr, *target, v);
        for (ExprPtr& a : copy->args) a = replace(a, *target, v);
        if (copy->lhs && copy->lhs->kind == ExprKind::Index && !sameExpr(*copy->lhs, *target))  // not the store itself
          copy->lhs = replace(copy->lhs, *target, v);
        body[j] = copy;
      }
      auto d = decl(name, target->type, target);
      d->type.constant = true;
      d->comment = body[i]->comment;
      d->section = body[i]->section;
      body[i]->section = Section::None;
      d->loc = body[i]->loc;
      body[i]->comment.clear();
      body.insert(body.begin() + static_cast<long>(i), d);
      return true;
    }
    return false;
  }
};

}  // namespace

void shareCommonCalls(Function& f, const Module& m) { Sharer(f, m, Shared::Calls).rewrite(f.body); }

void shareCommonFactors(Function& f, const Module& m) { Sharer(f, m, Shared::Factors).rewrite(f.body); }

void shareSeedLoads(Function& f, const Module& m) { Sharer(f, m, Shared::Seeds).rewrite(f.body); }

}  // namespace adjoint::transforms
