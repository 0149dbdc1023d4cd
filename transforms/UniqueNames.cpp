#include "transforms/UniqueNames.h"

#include <map>

#include "ad/ir/Names.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

ExprPtr rename(const ExprPtr& e, const std::map<std::string, std::string>& names) {
  return substitute(e, [&](const Expr& v) -> ExprPtr {
    auto it = names.find(v.text);
    return it == names.end() ? nullptr : var(it->second, v.type);
  });
}

class Renamer {
 public:
  explicit Renamer(const Function& f) {
    for (const Param& p : f.params) names_.insert(p.name);
  }

  // `scope` maps the names visible here to their new names.
  void list(StmtList& body, std::map<std::string, std::string> scope) {
    for (StmtPtr& s : body) stmt(s, scope);
  }

 private:
  NameSet names_;

  void stmt(StmtPtr& s, std::map<std::string, std::string>& scope) {
    // A for loop's header variable is visible in the header and the body only.
    std::map<std::string, std::string> inner = scope;
    if (s->init) stmt(s->init, inner);
    s->lhs = rename(s->lhs, inner);
    s->expr = rename(s->expr, inner);
    for (ExprPtr& a : s->args) a = rename(a, inner);
    if (s->kind == StmtKind::Decl) {
      scope[s->name] = names_.fresh(s->name);
      s->name = scope[s->name];
      return;
    }
    if (s->step) stmt(s->step, inner);
    list(s->body, inner);
    list(s->elseBody, scope);
  }
};

}  // namespace

void uniqueLocalNames(Function& f) {
  std::map<std::string, std::string> scope;
  for (const Param& p : f.params) scope[p.name] = p.name;
  Renamer(f).list(f.body, scope);
}

}  // namespace adjoint::transforms
