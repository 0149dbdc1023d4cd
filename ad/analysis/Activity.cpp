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

bool unchangedBy(const ExprPtr& e, const std::set<std::string>& written) {
  if (!fromVariablesAlone(e)) return false;
  for (const std::string& v : readVariables(e))
    if (written.count(v)) return false;
  return true;
}

std::set<std::string> readVariables(const StmtList& body) {
  std::set<std::string> names;
  walkExprs(body, [&](const Expr& x) {
    if (x.kind == ExprKind::Var) names.insert(x.text);
  });
  return names;
}

std::set<std::string> readVariablesBesidesUpdates(const StmtList& body) {
  std::set<std::string> names;
  walk(body, [&](const Stmt& s) {
    names.merge(readVariables(s.expr));
    for (const ExprPtr& a : s.args) names.merge(readVariables(a));
    for (const Expr* e = s.lhs.get(); e && e->kind == ExprKind::Index; e = e->operands[0].get())
      names.merge(readVariables(e->operands[1]));
  });
  return names;
}

namespace {

// Whether e depends on a variable in `names`. The result of a call that has no derivative (a
// function marked nondifferentiable) is a constant whatever its arguments.
bool readsAny(const ExprPtr& e, const std::set<std::string>& names, const Module& m) {
  if (!e) return false;
  if (e->kind == ExprKind::Var) return names.count(e->text) > 0;
  if (const Rule* rule = e->kind == ExprKind::Call ? m.rule(e->text) : nullptr; rule && rule->isLinear())
    return readsAny(e->operands[static_cast<size_t>(rule->linearArgument)], names, m);
  if (e->kind == ExprKind::Call && !m.rule(e->text)) {
    const Function* callee = m.find(e->text);
    if (!callee || callee->nondifferentiable) return false;
  }
  for (const ExprPtr& op : e->operands)
    if (readsAny(op, names, m)) return true;
  return false;
}

// The pointer arguments through which a call to a function of the module may write.
std::set<std::string> writtenPointerArgs(const Expr& call, const Module& m) {
  std::set<std::string> out;
  const Function* callee = m.find(call.text);
  if (!callee || callee->nondifferentiable) return out;
  for (size_t i = 0; i < call.operands.size() && i < callee->params.size(); ++i) {
    const Type& t = callee->params[i].type;
    const ExprPtr& array = pointerArg(call.operands[i]).array;
    if (t.pointer && !t.constPointee && t.isFloating() && array->kind == ExprKind::Var) out.insert(array->text);
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

std::set<std::string> writtenVariables(const StmtList& body) {
  std::set<std::string> names = assignedVariables(body);
  walkExprs(body, [&](const Expr& e) {
    if (e.kind != ExprKind::Call) return;
    for (const ExprPtr& arg : e.operands) {
      const ExprPtr& array = pointerArg(arg).array;  // a pointer into the array: p + offset
      if (array->kind == ExprKind::Var && array->type.pointer && !array->type.constPointee) names.insert(array->text);
    }
  });
  return names;
}

std::set<std::string> variedVariables(const Function& f, const std::set<std::string>& wrt, const Module& m) {
  std::set<std::string> varied = wrt;
  for (bool changed = true; changed;) {
    changed = false;
    auto mark = [&](const std::string& name) { changed |= varied.insert(name).second; };
    walk(f.body, [&](const Stmt& s) {
      if (s.passive) return;
      bool fromVaried = readsAny(s.expr, varied, m);
      for (const ExprPtr& a : s.args) fromVaried |= readsAny(a, varied, m);
      if (s.kind == StmtKind::Assign && s.lhs->type.isFloating() && fromVaried) mark(rootName(*s.lhs));
      if (s.kind == StmtKind::Decl && s.type.isFloating() && fromVaried) mark(s.name);
      if (s.expr && s.expr->kind == ExprKind::Call && fromVaried)
        for (const std::string& out : writtenPointerArgs(*s.expr, m)) mark(out);
    });
  }
  return varied;
}

namespace {

// The walk of readsWhatItStores: `stored` once a store into the array has run.
bool readsAfterStore(const StmtList& body, const std::string& array, bool inLoop, bool& stored) {
  for (const StmtPtr& s : body) {
    bool reads = false, store = s->kind == StmtKind::Assign && rootName(*s->lhs) == array;
    auto read = [&](const ExprPtr& e) { reads |= e && readVariables(e).count(array) > 0; };
    read(s->expr);
    for (const ExprPtr& a : s->args) read(a);
    if (s->kind == StmtKind::Assign) {
      for (const Expr* e = s->lhs.get(); e->kind == ExprKind::Index; e = e->operands[0].get()) read(e->operands[1]);
      reads |= store && s->op != Op::Assign && !s->atomic && stored;
    }
    bool call = false;  // passed as a pointer: the callee may read and write it
    walk(s->expr, [&](const Expr& e) {
      if (e.kind != ExprKind::Call) return;
      for (const ExprPtr& arg : e.operands) {
        const ExprPtr& o = pointerArg(arg).array;
        call |= o->kind == ExprKind::Var && o->text == array && o->type.pointer;
      }
    });
    if ((reads && stored) || call || (store && inLoop)) return true;
    stored |= store;
    bool loop = isLoop(s->kind);
    for (const StmtPtr& part : {s->init, s->step})
      if (part && readsAfterStore({part}, array, inLoop || loop, stored)) return true;
    if (readsAfterStore(s->body, array, inLoop || loop, stored) || readsAfterStore(s->elseBody, array, inLoop, stored))
      return true;
  }
  return false;
}

}  // namespace

bool readsWhatItStores(const StmtList& body, const std::string& array) {
  bool stored = false;
  return readsAfterStore(body, array, false, stored);
}

}  // namespace adjoint::analysis
