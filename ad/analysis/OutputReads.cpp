#include "ad/analysis/OutputReads.h"

#include "ad/analysis/Activity.h"
#include "ad/rules/Rules.h"

namespace adjoint::analysis {

using namespace ir;

namespace {

// The stores `buffer[i] = e` in `body`, each with whether it runs in a loop.
void storesInto(const StmtList& body, const std::string& buffer, bool inLoop,
                std::vector<std::pair<const Stmt*, bool>>& out) {
  for (const StmtPtr& s : body) {
    if (s->kind == StmtKind::Assign && s->lhs && s->lhs->kind == ExprKind::Index &&
        s->lhs->operands[0]->kind == ExprKind::Var && s->lhs->operands[0]->text == buffer)
      out.emplace_back(s.get(), inLoop);
    storesInto(s->body, buffer, inLoop || isLoop(s->kind), out);
    storesInto(s->elseBody, buffer, inLoop || isLoop(s->kind), out);
  }
}

// Whether `e` is `element` combined by + and - with terms that do not read `buffer` (or reads
// no `buffer` at all).
bool additiveIn(const ExprPtr& e, const std::string& buffer, const Expr& element) {
  if (!reads(e, buffer)) return true;
  if (sameExpr(*e, element)) return true;
  if (e->kind == ExprKind::Cast) return additiveIn(e->operands[0], buffer, element);
  if (isOp(*e, Op::Neg)) return additiveIn(e->operands[0], buffer, element);
  if (isOp(*e, Op::Add) || isOp(*e, Op::Sub))
    return additiveIn(e->operands[0], buffer, element) && additiveIn(e->operands[1], buffer, element);
  return false;
}

}  // namespace

const Stmt* storeReadableAfter(const Function& k, const std::string& buffer, const Module& m) {
  std::vector<std::pair<const Stmt*, bool>> stores;
  storesInto(k.body, buffer, false, stores);
  if (stores.size() != 1 || stores[0].second) return nullptr;
  const Stmt* store = stores[0].first;
  int everywhere = 0;
  for (const StmtPtr& s : k.body) everywhere += mentions(*s, buffer);
  if (store->op != Op::Assign || store->atomic || everywhere != mentions(*store, buffer)) return nullptr;
  const Expr& element = *store->lhs;
  if (reads(element.operands[1], buffer)) return nullptr;
  const Rule* rule = rules::resultReadingRule(m, *store->expr);
  if (!rule) return nullptr;
  const std::vector<ExprPtr>& args = store->expr->operands;
  std::set<std::string> bufferArgs;  // the rule's names of the arguments that read the buffer
  for (size_t i = 0; i < args.size() && i < rule->params.size(); ++i) {
    if (!reads(args[i], buffer)) continue;
    if (!additiveIn(args[i], buffer, element)) return nullptr;
    bufferArgs.insert(rule->params[i]);
  }
  for (const ExprPtr& partial : rule->partials) {
    if (!partial) continue;
    for (const std::string& v : readVariables(partial))
      if (bufferArgs.count(v)) return nullptr;
  }
  return store;
}

}  // namespace adjoint::analysis
