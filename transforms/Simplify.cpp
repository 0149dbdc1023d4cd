#include "transforms/Simplify.h"

#include "ad/analysis/Activity.h"
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

// Whether the accumulation `s` can wait until after `later`: `later` does not mention its array,
// changes nothing it reads, and does not leave early.
bool canWaitPast(const Stmt& s, const Stmt& later) {
  std::set<std::string> read = analysis::readVariables(s.lhs);
  read.merge(analysis::readVariables(s.expr));
  for (const std::string& v : analysis::writtenVariables(StmtList{std::make_shared<Stmt>(later)}))
    if (read.count(v)) return false;
  return mentions(later, rootName(*s.lhs)) == 0 && !jumpsOut(later);
}

// Device code: an addition to an array element waits for a later addition to the same element
// in its list, past statements it can wait past, and they merge there: `x_bar[i] += a; float
// t = shfl(...); x_bar[i] += t;` is one read-modify-write of memory, `x_bar[i] += a + t;`, where
// the compiler must keep two (the memory may change in between, for all it knows).
void mergeDistantAdditions(StmtList& body) {
  for (size_t p = 0; p < body.size(); ++p) {
    const Stmt& s = *body[p];
    bool effects = false;  // a tape's pop or the program's own code: never moved past another
    walk(s.expr, [&](const Expr& e) { effects |= e.kind == ExprKind::Pop || e.kind == ExprKind::Verbatim; });
    if (!isAccumulation(s) || s.atomic || s.lhs->kind != ExprKind::Index || effects) continue;
    for (size_t q = p + 1; q < body.size(); ++q) {
      const Stmt& later = *body[q];
      if (isAccumulation(later) && isAccumulationInto(later, s)) {
        auto merged = std::make_shared<Stmt>(later);
        merged->expr = add(s.expr, later.expr);
        if (!s.comment.empty()) merged->comment = s.comment + (later.comment.empty() ? "" : "\n" + later.comment);
        body[q] = merged;
        body.erase(body.begin() + static_cast<long>(p--));
        break;
      }
      if (!canWaitPast(s, later)) break;
    }
  }
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
    if (device_) mergeDistantAdditions(body);
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
