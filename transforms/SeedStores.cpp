#include "transforms/SeedStores.h"

#include "ad/analysis/Activity.h"
#include "ad/ir/Printer.h"
#include "ad/ir/Rewriter.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

// `A_bar[i] = 0` into a pointer parameter: the seed of an output, read by the statements before.
bool isSeedZeroing(const Stmt& s, const Function& d, bool commented = false) {
  if (s.kind != StmtKind::Assign || s.op != Op::Assign || s.atomic || (!commented && !s.comment.empty()) ||
      s.lhs->kind != ExprKind::Index)
    return false;
  const Expr& array = *s.lhs->operands[0];
  const Param* p = array.kind == ExprKind::Var ? d.param(array.text) : nullptr;
  return p && p->type.pointer && p->role == Role::Adjoint && isZero(s.expr);
}

// Whether the indices r + k and r + k' (k, k' integer literals, r + 0 written r) differ: another
// lane of the same vector (y_bar[4 * i + 2] beside y_bar[4 * i + 3]).
bool otherLane(const Expr& a, const Expr& b) {
  auto [r, k] = literalOffset(a);
  auto [q, j] = literalOffset(b);
  return k != j && sameExpr(*r, *q);
}

// Whether the store `s` can wait until after `later`: they touch its array only at other lanes of
// its vector, do not change the variables of its index, do not leave early, and no thread waits
// for it at a barrier.
bool canWait(const Stmt& s, const StmtList& later) {
  const std::string& array = s.lhs->operands[0]->text;
  std::set<std::string> indexVars;
  walk(s.lhs->operands[1], [&](const Expr& e) {
    if (e.kind == ExprKind::Var) indexVars.insert(e.text);
  });
  bool ok = true;
  int uses = 0, otherLanes = 0;
  walkExprs(later, [&](const Expr& e) {
    uses += e.kind == ExprKind::Var && e.text == array;
    otherLanes += e.kind == ExprKind::Index && e.operands[0]->kind == ExprKind::Var && e.operands[0]->text == array &&
                  otherLane(*e.operands[1], *s.lhs->operands[1]);
    ok &= !isBarrier(e);
  });
  ok &= uses == otherLanes;
  for (const std::string& v : analysis::assignedVariables(later)) ok &= !indexVars.count(v);
  for (const StmtPtr& l : later) ok &= !jumpsOut(*l);
  return ok;
}

// Why the zeroings are where they are.
std::string deferralNote(const StmtList& zeroings) {
  if (zeroings.size() == 1)
    return "the seed " + printPlace(*zeroings[0]->lhs) +
           ", read above, zeroed after the loads that follow it: a store\n"
           "between loads holds back the loads after it";
  return "the seeds below, read above, zeroed after the loads that follow them: a store\n"
         "between loads holds back the loads after it";
}

// In each list, a seed's zeroing that can wait moves after the loads that follow it.
class SeedSinker : public Rewriter {
 public:
  explicit SeedSinker(const Function& d) : d_(d) {}

 private:
  const Function& d_;

  void rewriteList(StmtList& body) override {
    StmtList kept, deferred;
    for (size_t k = 0; k < body.size(); ++k) {
      const StmtPtr& s = body[k];
      bool last = k + 1 == body.size();
      if (!last && isSeedZeroing(*s, d_) && canWait(*s, StmtList(body.begin() + static_cast<long>(k) + 1, body.end())))
        deferred.push_back(s);
      else
        kept.push_back(s);
    }
    if (!deferred.empty()) deferred[0]->comment = deferralNote(deferred);
    kept.insert(kept.end(), deferred.begin(), deferred.end());
    body = kept;
    deferOutOfIfs(body);
  }

  // An if (without else) that ends with seeds' zeroings, followed by statements they can wait
  // past, which leave the if's condition as it was: the zeroings move to an if of the same
  // condition at the end of the list (`if (i < n) { a = y_bar[i]; y_bar[i] = 0; } ...
  // x_bar[i] += b;` zeroes y_bar[i] after the load of x_bar[i]).
  void deferOutOfIfs(StmtList& body) {
    StmtList kept, moved;
    for (size_t k = 0; k < body.size(); ++k) {
      StmtPtr s = body[k];
      kept.push_back(s);
      if (s->kind != StmtKind::If || !s->elseBody.empty() || k + 1 == body.size()) continue;
      size_t first = s->body.size();
      while (first > 0 && isSeedZeroing(*s->body[first - 1], d_, true)) --first;
      if (first == s->body.size()) continue;
      StmtList later(body.begin() + static_cast<long>(k) + 1, body.end());
      bool ok = true;
      for (size_t j = first; j < s->body.size(); ++j) ok &= canWait(*s->body[j], later);
      std::set<std::string> condition = analysis::readVariables(s->expr);
      for (const std::string& v : analysis::writtenVariables(later)) ok &= !condition.count(v);
      if (!ok) continue;
      StmtPtr zeroings = ifStmt(s->expr, StmtList(s->body.begin() + static_cast<long>(first), s->body.end()));
      zeroings->body.front()->comment.clear();
      if (!moved.empty() && sameExpr(*moved.back()->expr, *s->expr))  // another if of the same condition
        moved.back()->body.insert(moved.back()->body.end(), zeroings->body.begin(), zeroings->body.end());
      else
        moved.push_back(zeroings);
      moved.back()->comment = deferralNote(moved.back()->body);
      s->body.erase(s->body.begin() + static_cast<long>(first), s->body.end());
      if (s->body.empty()) kept.pop_back();
    }
    kept.insert(kept.end(), moved.begin(), moved.end());
    body = kept;
  }
};

}  // namespace

void sinkSeedZeroing(Function& d) { SeedSinker(d).rewrite(d.body); }

}  // namespace adjoint::transforms
