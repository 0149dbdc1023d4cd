#include "transforms/ExtractCalls.h"

#include "ad/ir/GuardedOperands.h"
#include "ad/ir/Names.h"
#include "ad/ir/Rewriter.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

class CallExtractor : public Rewriter {
 public:
  CallExtractor(const Function& f, const Module& m) : module_(m), names_(f) {}

 private:
  // The calls inside s's expression are declared before it.
  StmtList rewriteStmt(const StmtPtr& s) override {
    StmtList out;
    bool differentiated = s->kind == StmtKind::Assign || s->kind == StmtKind::Decl || s->kind == StmtKind::Return ||
                          s->kind == StmtKind::Eval;
    if (differentiated && s->expr) {
      bool wholeCallAllowed = (s->kind == StmtKind::Assign && s->op == Op::Assign) || s->kind == StmtKind::Decl ||
                              s->kind == StmtKind::Eval;
      s->expr = extract(s->expr, wholeCallAllowed, s->loc, out);
    }
    out.push_back(s);
    return out;
  }

  const Module& module_;
  NameSet names_;

  // Calls that extraction moves into statements of their own.
  bool isExtracted(const Expr& e) const {
    return e.kind == ExprKind::Call && module_.find(e.text) && e.type.isFloating();
  }
  bool containsExtracted(const ExprPtr& e) const {
    bool found = false;
    walk(e, [&](const Expr& x) { found |= isExtracted(x); });
    return found;
  }

  // Replaces calls inside `e` by temporaries declared in `out`; `e` itself stays a call when
  // `keepOuterCall`.
  ExprPtr extract(const ExprPtr& e, bool keepOuterCall, SourceLoc loc, StmtList& out) {
    if (e->operands.empty()) return e;
    if (e->kind == ExprKind::Select && (containsExtracted(e->operands[1]) || containsExtracted(e->operands[2])))
      return guardedSelect(*e, loc, out);
    if (e->kind == ExprKind::Binary && isLogical(e->op) && containsExtracted(e->operands[1]))
      return guardedLogical(*e, loc, out);
    auto copy = std::make_shared<Expr>(*e);
    for (ExprPtr& op : copy->operands) op = extract(op, false, loc, out);
    if (!isExtracted(*copy) || keepOuterCall) return copy;
    std::string name = names_.fresh(copy->text + "_result");
    out.push_back(at(decl(name, copy->type, copy), loc));
    return var(name, copy->type);
  }

  // `e` and the statements of the calls extracted from it (a call that is all of it stays).
  GuardedOperand extracted(const ExprPtr& e, SourceLoc loc) {
    GuardedOperand operand;
    operand.value = extract(e, true, loc, operand.before);
    return operand;
  }

  // `c ? a : b` whose branches call functions of the module: a call runs only on the branch that
  // the condition picks (ad/ir/GuardedOperands.h).
  ExprPtr guardedSelect(const Expr& e, SourceLoc loc, StmtList& out) {
    ExprPtr cond = extract(e.operands[0], false, loc, out);
    return ir::guardedSelect(names_.fresh("selected"), e.type, cond, extracted(e.operands[1], loc),
                             extracted(e.operands[2], loc), loc, out);
  }

  // `a && b` (`a || b`) whose right side calls functions of the module: b's calls run only when a
  // is true (false).
  ExprPtr guardedLogical(const Expr& e, SourceLoc loc, StmtList& out) {
    ExprPtr lhs = extract(e.operands[0], false, loc, out);
    return ir::guardedLogical(names_.fresh(e.op == Op::And ? "both" : "either"), e.op, lhs,
                              extracted(e.operands[1], loc), loc, out);
  }
};

}  // namespace

void extractCalls(Function& f, const Module& m) { CallExtractor(f, m).rewrite(f.body); }

}  // namespace adjoint::transforms
