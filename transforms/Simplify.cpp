#include "transforms/Simplify.h"

#include "ad/ir/Rewriter.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

bool isAccumulation(const Stmt& s) { return s.kind == StmtKind::Assign && s.op == Op::Add; }

// Neighbouring accumulations into one place merge: x += a; x += b is x += a + b.
class Simplifier : public Rewriter {
  void rewriteList(StmtList& body) override {
    StmtList out;
    for (const StmtPtr& s : body) {
      if (!out.empty() && isAccumulation(*s) && isAccumulation(*out.back()) && sameExpr(*s->lhs, *out.back()->lhs) &&
          !reads(s->expr, rootName(*s->lhs))) {
        auto merged = std::make_shared<Stmt>(*out.back());
        merged->expr = add(out.back()->expr, s->expr);
        out.back() = merged;
        continue;
      }
      out.push_back(s);
    }
    // x += -e reads better as x -= e.
    for (StmtPtr& s : out) {
      if (isAccumulation(*s) && isOp(*s->expr, Op::Neg)) {
        auto flipped = std::make_shared<Stmt>(*s);
        flipped->op = Op::Sub;
        flipped->expr = s->expr->operands[0];
        s = flipped;
      }
    }
    body = std::move(out);
  }
};

}  // namespace

void simplify(Function& f) { Simplifier().rewrite(f.body); }

}  // namespace adjoint::transforms
