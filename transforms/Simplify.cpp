#include "transforms/Simplify.h"

#include "ad/ir/Rewriter.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

bool isAccumulation(const Stmt& s) { return s.kind == StmtKind::Assign && s.op == Op::Add; }

bool isAccumulationInto(const Stmt& s, const Stmt& target) {
  return s.kind == StmtKind::Assign && (s.op == Op::Add || s.op == Op::Sub) && !s.atomic &&
         sameExpr(*s.lhs, *target.lhs) && !reads(s.expr, rootName(*s.lhs));
}

bool isZeroing(const Stmt& s) {
  return s.kind == StmtKind::Assign && s.op == Op::Assign && !s.atomic && isZero(s.expr);
}

// Neighbouring accumulations into one place merge: x += a; x += b is x += a + b. In host code, a
// store of zero and an accumulation after it are one store: x = 0; x += a is x = a. (In device
// code, parallel-adjoints does this once it knows which accumulations stay plain.)
class Simplifier : public Rewriter {
 public:
  explicit Simplifier(bool device) : device_(device) {}

 private:
  bool device_;

  void rewriteList(StmtList& body) override {
    StmtList out;
    for (const StmtPtr& s : body) {
      if (!out.empty() && isAccumulation(*s) && isAccumulation(*out.back()) && isAccumulationInto(*s, *out.back())) {
        auto merged = std::make_shared<Stmt>(*out.back());
        merged->expr = add(out.back()->expr, s->expr);
        out.back() = merged;
        continue;
      }
      if (!device_ && !out.empty() && isZeroing(*out.back()) && isAccumulationInto(*s, *out.back())) {
        auto stored = std::make_shared<Stmt>(*s);
        stored->op = Op::Assign;
        stored->expr = s->op == Op::Sub ? neg(s->expr) : s->expr;
        if (stored->comment.empty()) stored->comment = out.back()->comment;
        if (stored->section == Section::None) stored->section = out.back()->section;
        out.back() = stored;
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

void simplify(Function& f) { Simplifier(f.kernel || f.device).rewrite(f.body); }

}  // namespace adjoint::transforms
