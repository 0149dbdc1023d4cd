#include <set>

#include "transforms/Passes.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

class CallExtractor {
 public:
  CallExtractor(const Function& f, const Module& m) : module_(m) {
    walk(f.body, [&](const Stmt& s) {
      if (s.kind == StmtKind::Decl) used_.insert(s.name);
    });
    for (const Param& p : f.params) used_.insert(p.name);
  }

  void list(StmtList& body) {
    StmtList out;
    for (StmtPtr& s : body) {
      for (StmtList* nested : {&s->body, &s->elseBody}) list(*nested);
      bool differentiated = s->kind == StmtKind::Assign || s->kind == StmtKind::Decl ||
                            s->kind == StmtKind::Return || s->kind == StmtKind::Eval;
      if (differentiated && s->expr) {
        bool wholeCallAllowed = (s->kind == StmtKind::Assign && s->op == "=") || s->kind == StmtKind::Decl ||
                                s->kind == StmtKind::Eval;
        s->expr = extract(s->expr, wholeCallAllowed, s->loc, out);
      }
      out.push_back(s);
    }
    body = std::move(out);
  }

 private:
  const Module& module_;
  std::set<std::string> used_;

  bool isModuleCall(const Expr& e) const { return e.kind == ExprKind::Call && module_.find(e.text); }

  std::string fresh(const std::string& base) {
    std::string n = base;
    for (int k = 2; used_.count(n); ++k) n = base + "_" + std::to_string(k);
    used_.insert(n);
    return n;
  }

  // Replaces calls inside `e` by temporaries declared in `out`; `e` itself stays a call when
  // `keepOuterCall`.
  ExprPtr extract(const ExprPtr& e, bool keepOuterCall, SourceLoc loc, StmtList& out) {
    if (e->operands.empty()) return e;
    auto copy = std::make_shared<Expr>(*e);
    for (ExprPtr& op : copy->operands) op = extract(op, false, loc, out);
    if (!isModuleCall(*copy) || keepOuterCall || !copy->type.isFloating()) return copy;
    std::string name = fresh(copy->text + "_result");
    out.push_back(at(decl(name, copy->type, copy), loc));
    return var(name, copy->type);
  }
};

}  // namespace

void extractCalls(Function& f, const Module& m) { CallExtractor(f, m).list(f.body); }

}  // namespace adjoint::transforms
