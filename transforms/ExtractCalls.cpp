#include "transforms/ExtractCalls.h"

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

  // The statements that compute `e` into `target`, its calls extracted before it.
  StmtList computeInto(const ExprPtr& target, const ExprPtr& e, SourceLoc loc) {
    StmtList body;
    ExprPtr value = extract(e, true, loc, body);
    body.push_back(at(assign(target, Op::Assign, value), loc));
    return body;
  }

  // `c ? a : b` whose branches call functions of the module: a call runs only on the branch that
  // the condition picks (its guard may be what keeps it in bounds or out of a recursion), so
  // `T v = 0; if (c) { ...calls of a; v = a; } else { ...calls of b; v = b; }`.
  ExprPtr guardedSelect(const Expr& e, SourceLoc loc, StmtList& out) {
    ExprPtr cond = extract(e.operands[0], false, loc, out);
    ExprPtr value = var(names_.fresh("selected"), e.type);
    out.push_back(at(decl(value->text, e.type, number(0, e.type)), loc));
    out.push_back(
        at(ifStmt(cond, computeInto(value, e.operands[1], loc), computeInto(value, e.operands[2], loc)), loc));
    return value;
  }

  // `a && b` (`a || b`) whose right side calls functions of the module: b is evaluated only when
  // a is true (false), so `bool v = false; if (a) { ...calls of b; v = b; }`.
  ExprPtr guardedLogical(const Expr& e, SourceLoc loc, StmtList& out) {
    bool isAnd = e.op == Op::And;
    ExprPtr lhs = extract(e.operands[0], false, loc, out);
    ExprPtr value = var(names_.fresh(isAnd ? "both" : "either"), Type::of(Scalar::Bool));
    out.push_back(at(decl(value->text, value->type, boolean(!isAnd)), loc));
    out.push_back(at(ifStmt(isAnd ? lhs : unary(Op::Not, lhs), computeInto(value, e.operands[1], loc)), loc));
    return value;
  }
};

}  // namespace

void extractCalls(Function& f, const Module& m) { CallExtractor(f, m).rewrite(f.body); }

}  // namespace adjoint::transforms
