#include "transforms/FlattenBlocks.h"

#include "ad/ir/Rewriter.h"

namespace adjoint::transforms {

using namespace ir;

namespace {

// A block's statements take its place (nested blocks were flattened first).
class Flattener : public Rewriter {
  StmtList rewriteStmt(const StmtPtr& s) override {
    if (s->kind == StmtKind::Block) return s->body;
    return {s};
  }
};

}  // namespace

void flattenBlocks(Function& f) { Flattener().rewrite(f.body); }

}  // namespace adjoint::transforms
