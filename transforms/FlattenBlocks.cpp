#include "transforms/FlattenBlocks.h"

namespace adjoint::transforms {

using namespace ir;

namespace {

// Appends the statements of `body` to `out`, the statements of nested blocks in their place.
void flattenInto(const StmtList& body, StmtList& out) {
  for (const StmtPtr& s : body) {
    if (s->kind == StmtKind::Block) {
      flattenInto(s->body, out);
      continue;
    }
    StmtList inner, innerElse;
    flattenInto(s->body, inner);
    flattenInto(s->elseBody, innerElse);
    s->body = inner;
    s->elseBody = innerElse;
    out.push_back(s);
  }
}

}  // namespace

void flattenBlocks(Function& f) {
  StmtList out;
  flattenInto(f.body, out);
  f.body = out;
}

}  // namespace adjoint::transforms
