#include "ad/analysis/Activity.h"

namespace adjoint::analysis {

using namespace ir;

std::set<std::string> readVariables(const ExprPtr& e) {
  std::set<std::string> names;
  walk(e, [&](const Expr& x) {
    if (x.kind == ExprKind::Var) names.insert(x.text);
  });
  return names;
}

namespace {

bool readsAny(const ExprPtr& e, const std::set<std::string>& names) {
  bool found = false;
  walk(e, [&](const Expr& x) { found |= x.kind == ExprKind::Var && names.count(x.text); });
  return found;
}

// The pointer arguments through which a call to a function of the module may write.
std::set<std::string> writtenPointerArgs(const Expr& call, const Module& m) {
  std::set<std::string> out;
  const Function* callee = m.find(call.text);
  if (!callee) return out;
  for (size_t i = 0; i < call.operands.size() && i < callee->params.size(); ++i) {
    const Type& t = callee->params[i].type;
    if (t.pointer && !t.constPointee && t.isFloating() && call.operands[i]->kind == ExprKind::Var)
      out.insert(call.operands[i]->text);
  }
  return out;
}

}  // namespace

std::set<std::string> assignedVariables(const Stmt& s) {
  std::set<std::string> names;
  walk(std::make_shared<Stmt>(s), [&](const Stmt& x) {
    if (x.kind == StmtKind::Assign) names.insert(rootName(*x.lhs));
    if (x.kind == StmtKind::Decl) names.insert(x.name);
  });
  return names;
}

std::set<std::string> assignedVariables(const StmtList& body) {
  std::set<std::string> names;
  for (const StmtPtr& s : body) names.merge(assignedVariables(*s));
  return names;
}

std::set<std::string> variedVariables(const Function& f, const std::set<std::string>& wrt, const Module& m) {
  std::set<std::string> varied = wrt;
  for (bool changed = true; changed;) {
    changed = false;
    auto mark = [&](const std::string& name) { changed |= varied.insert(name).second; };
    walk(f.body, [&](const Stmt& s) {
      bool fromVaried = readsAny(s.expr, varied);
      for (const ExprPtr& a : s.args) fromVaried |= readsAny(a, varied);
      if (s.kind == StmtKind::Assign && s.lhs->type.isFloating() && fromVaried) mark(rootName(*s.lhs));
      if (s.kind == StmtKind::Decl && s.type.isFloating() && fromVaried) mark(s.name);
      if (s.expr && s.expr->kind == ExprKind::Call && fromVaried)
        for (const std::string& out : writtenPointerArgs(*s.expr, m)) mark(out);
    });
  }
  return varied;
}

}  // namespace adjoint::analysis
