#include "transforms/DropOutputStores.h"

#include <set>

#include "ad/ir/Rewriter.h"

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

// Stores into the given arrays are left out.
class StoreDropper : public Rewriter {
 public:
  explicit StoreDropper(std::set<std::string> arrays) : arrays_(std::move(arrays)) {}

 private:
  std::set<std::string> arrays_;

  StmtList rewriteStmt(const StmtPtr& s) override {
    if (s->kind == StmtKind::Assign && arrays_.count(rootName(*s->lhs))) return {};
    return {s};
  }
};

}  // namespace

void dropOutputStores(Function& d, const Function& primal) {
  std::set<std::string> outputs = writeOnlyArrays(primal);
  if (!outputs.empty()) StoreDropper(std::move(outputs)).rewrite(d.body);
}

}  // namespace adjoint::transforms
