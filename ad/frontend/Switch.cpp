// switch statements, converted to the if / else if chain they mean (see Converter::convertSwitch).
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

namespace {

// The statements after one run of labels (`case 1: case 2:`, or `default:`).
struct CaseGroup {
  std::vector<const CaseStmt*> cases;
  bool isDefault = false;
  std::vector<const Stmt*> body;
  SourceLocation at;
};

bool leavesSwitch(const Stmt* s) { return isa<BreakStmt>(s) || isa<ReturnStmt>(s) || isa<ContinueStmt>(s); }

// A case's statements with a braced block at their end opened (`case 1: { ...; break; }`): the
// case becomes a block of its own anyway.
void openTrailingBlocks(std::vector<const Stmt*>& stmts) {
  while (!stmts.empty() && isa<CompoundStmt>(stmts.back())) {
    const auto* block = cast<CompoundStmt>(stmts.back());
    stmts.pop_back();
    stmts.insert(stmts.end(), block->body_begin(), block->body_end());
  }
}

// A `break` of the switch itself inside `s` (not of a loop or switch nested in it).
const BreakStmt* breakOfSwitch(const Stmt* s) {
  if (!s) return nullptr;
  if (const auto* b = dyn_cast<BreakStmt>(s)) return b;
  if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<SwitchStmt>(s) || isa<CXXForRangeStmt>(s))
    return nullptr;
  for (const Stmt* child : s->children())
    if (const BreakStmt* b = breakOfSwitch(child)) return b;
  return nullptr;
}

// The switch's body split at its labels. (A label nested in another statement, as in Duff's
// device, is left in its statement, where it is reported as unsupported.)
std::vector<CaseGroup> caseGroups(const CompoundStmt* body) {
  std::vector<CaseGroup> groups;
  for (const Stmt* s : body->body()) {
    if (isa<SwitchCase>(s) && (groups.empty() || !groups.back().body.empty()))
      groups.push_back({{}, false, {}, s->getBeginLoc()});
    while (const auto* label = dyn_cast<SwitchCase>(s)) {
      if (const auto* c = dyn_cast<CaseStmt>(label))
        groups.back().cases.push_back(c);
      else
        groups.back().isDefault = true;
      s = label->getSubStmt();
    }
    if (groups.empty()) continue;  // statements before the first label never run
    groups.back().body.push_back(s);
  }
  return groups;
}

}  // namespace

// `v == label` for each label of the group, or-ed (a GNU range `case lo ... hi` is lo <= v <= hi).
ir::ExprPtr Converter::caseCondition(const ir::ExprPtr& value, const std::vector<const CaseStmt*>& cases) {
  ir::ExprPtr cond;
  for (const CaseStmt* c : cases) {
    ir::ExprPtr test = ir::binary(ir::Op::Eq, value, convertExpr(c->getLHS()));
    if (c->getRHS())
      test = ir::binary(ir::Op::And, ir::binary(ir::Op::Ge, value, convertExpr(c->getLHS())),
                        ir::binary(ir::Op::Le, value, convertExpr(c->getRHS())));
    cond = cond ? ir::binary(ir::Op::Or, cond, test) : test;
  }
  return cond;
}

// switch (v) { case 1: case 2: A; break; case 3: B; return x; default: C; }
//   is  if (v == 1 || v == 2) { A } else if (v == 3) { B; return x; } else { C }
// which holds when no case falls through into the next and no break leaves the switch from
// inside a case (both reported). A condition other than a variable is evaluated once, into a local.
void Converter::convertSwitch(const SwitchStmt* sw, ir::StmtList& out) {
  const auto* body = dyn_cast<CompoundStmt>(sw->getBody());
  if (sw->getInit() || sw->getConditionVariable() || !body) {
    fail(sw->getSourceRange(), "this switch is not supported",
         "declare variables before the switch, and give it a braced body of case labels");
    return;
  }
  std::vector<CaseGroup> groups = caseGroups(body);
  for (size_t k = 0; k < groups.size(); ++k) {
    std::vector<const Stmt*>& stmts = groups[k].body;
    openTrailingBlocks(stmts);
    if (k + 1 < groups.size() && (stmts.empty() || !leavesSwitch(stmts.back()))) {
      fail(SourceRange(groups[k + 1].at), "a case that falls through into the next is not supported",
           "end the case before it with break (or return); give cases that share code one list of labels");
      return;
    }
    if (!stmts.empty() && isa<BreakStmt>(stmts.back())) stmts.pop_back();
    for (const Stmt* s : stmts)
      if (const BreakStmt* b = breakOfSwitch(s)) {
        fail(b->getSourceRange(), "a break that leaves the switch from inside a case is not supported",
             "end the case with its break, and use if / else inside it");
        return;
      }
  }
  ir::ExprPtr value = convertExpr(sw->getCond());
  if (!isa<DeclRefExpr>(sw->getCond()->IgnoreParenImpCasts())) {
    std::string name = freshName("switch_value");
    out.push_back(ir::at(ir::decl(name, value->type, value), loc(sw->getBeginLoc())));
    value = ir::var(name, value->type);
  }
  ir::StmtList chain;
  for (const CaseGroup& g : groups)
    if (g.isDefault)
      for (const Stmt* s : g.body) convertStmt(s, chain);
  for (auto g = groups.rbegin(); g != groups.rend(); ++g) {
    if (g->isDefault) continue;
    ir::StmtList then;
    for (const Stmt* s : g->body) convertStmt(s, then);
    chain = {ir::at(ir::ifStmt(caseCondition(value, g->cases), then, chain), loc(g->at))};
  }
  out.insert(out.end(), chain.begin(), chain.end());
}

}  // namespace adjoint::frontend::detail
