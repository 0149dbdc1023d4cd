#include "ad/ir/Rewriter.h"

namespace adjoint::ir {

void Rewriter::rewrite(StmtList& list) {
  if (list.empty()) return;
  StmtList out;
  out.reserve(list.size());
  for (const StmtPtr& s : list) {
    enter(*s);
    rewrite(s->body);
    rewrite(s->elseBody);
    for (StmtPtr& r : rewriteStmt(s)) out.push_back(std::move(r));
  }
  list = std::move(out);
  rewriteList(list);
}

}  // namespace adjoint::ir
