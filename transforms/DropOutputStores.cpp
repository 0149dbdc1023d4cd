#include "transforms/DropOutputStores.h"

#include <algorithm>
#include <set>

namespace adjoint::transforms {

namespace {

using namespace ir;

// The pointer parameters `f` writes and never reads.
std::set<std::string> writeOnlyArrays(const Function& f) {
  std::set<std::string> read, written;
  auto collectReads = [&](const ExprPtr& e) {
    walk(e, [&](const Expr& x) {
      if (x.kind == ExprKind::Var) read.insert(x.text);
    });
  };
  walk(f.body, [&](const Stmt& s) {
    collectReads(s.expr);
    for (const ExprPtr& a : s.args) collectReads(a);
    if (s.kind != StmtKind::Assign) return;
    written.insert(rootName(*s.lhs));
    if (s.op != Op::Assign && !s.atomic) read.insert(rootName(*s.lhs));  // x[i] *= 2 reads x[i]
    for (const Expr* e = s.lhs.get(); e->kind == ExprKind::Index; e = e->operands[0].get())
      collectReads(e->operands[1]);
  });
  std::set<std::string> out;
  for (const Param& p : f.params)
    if (p.type.pointer && written.count(p.name) && !read.count(p.name)) out.insert(p.name);
  return out;
}

void dropStores(StmtList& body, const std::set<std::string>& arrays) {
  body.erase(
      std::remove_if(body.begin(), body.end(),
                     [&](const StmtPtr& s) { return s->kind == StmtKind::Assign && arrays.count(rootName(*s->lhs)); }),
      body.end());
  for (const StmtPtr& s : body) {
    dropStores(s->body, arrays);
    dropStores(s->elseBody, arrays);
  }
}

}  // namespace

void dropOutputStores(Function& d, const Function& primal) {
  std::set<std::string> outputs = writeOnlyArrays(primal);
  if (!outputs.empty()) dropStores(d.body, outputs);
}

}  // namespace adjoint::transforms
