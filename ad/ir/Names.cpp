#include "ad/ir/Names.h"

#include "ad/ir/Rewriter.h"

namespace adjoint::ir {

NameSet::NameSet(const Function& f) {
  for (const Param& p : f.params) insert(p.name);
  walk(f.body, [&](const Stmt& s) {
    if (s.kind == StmtKind::Decl) insert(s.name);
  });
}

std::string NameSet::fresh(const std::string& base) {
  std::string name = base;
  for (int k = 2; contains(name); ++k) name = base + "_" + std::to_string(k);
  insert(name);
  return name;
}

ExprPtr substitute(const ExprPtr& e, const std::function<ExprPtr(const Expr& variable)>& replace) {
  if (!e) return e;
  if (e->kind == ExprKind::Var) {
    ExprPtr replaced = replace(*e);
    return replaced ? replaced : e;
  }
  if (e->operands.empty()) return e;
  auto copy = std::make_shared<Expr>(*e);
  for (ExprPtr& op : copy->operands) op = substitute(op, replace);
  return copy;
}

namespace {

// Replaces variables in every expression of the statements (a loop's init and step included).
class Substitution : public Rewriter {
 public:
  explicit Substitution(const std::function<ExprPtr(const Expr& variable)>& replace) : replace_(replace) {}

 private:
  const std::function<ExprPtr(const Expr& variable)>& replace_;

  void enter(Stmt& s) override {
    s.lhs = substitute(s.lhs, replace_);
    s.expr = substitute(s.expr, replace_);
    for (ExprPtr& a : s.args) a = substitute(a, replace_);
    for (StmtPtr* part : {&s.init, &s.step})
      if (*part) enter(**part);
  }
};

}  // namespace

void substitute(StmtList& body, const std::function<ExprPtr(const Expr& variable)>& replace) {
  Substitution(replace).rewrite(body);
}

void substitute(StmtList& body, const std::map<std::string, ExprPtr>& values) {
  substitute(body, [&](const Expr& v) -> ExprPtr {
    auto it = values.find(v.text);
    return it == values.end() ? nullptr : it->second;
  });
}

}  // namespace adjoint::ir
