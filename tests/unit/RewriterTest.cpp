#include <doctest/doctest.h>

#include "ad/ir/Printer.h"
#include "ad/ir/Rewriter.h"

using namespace adjoint::ir;

namespace {

const Type kDouble = Type::of(Scalar::Double);

// Removes `x = 0`, doubles `x += 1` into two statements, and records what it saw, in order.
class Recorder : public Rewriter {
 public:
  std::string trace;

 private:
  void enter(Stmt& s) override { trace += "enter " + std::string(s.kind == StmtKind::If ? "if" : "assign") + ";"; }
  StmtList rewriteStmt(const StmtPtr& s) override {
    if (s->kind == StmtKind::Assign && s->op == Op::Assign) return {};
    if (s->kind == StmtKind::Assign) return {s, s};
    return {s};
  }
  void rewriteList(StmtList& list) override { trace += "list of " + std::to_string(list.size()) + ";"; }
};

}  // namespace

TEST_CASE("a rewriter splices what each statement becomes, nested lists first") {
  ExprPtr x = var("x", kDouble);
  StmtList body{assign(x, Op::Assign, number(0, kDouble)),
                ifStmt(binary(Op::Gt, x, number(1, kDouble)), {assign(x, Op::Add, number(1, kDouble))},
                       {assign(x, Op::Assign, number(2, kDouble))})};
  Recorder r;
  r.rewrite(body);
  CHECK(print(body) == "if (x > 1.0) {\n  x += 1.0;\n  x += 1.0;\n}\n");
  // Parents are entered before their children; each list is finished after its statements.
  CHECK(r.trace == "enter assign;enter if;enter assign;list of 2;enter assign;list of 0;list of 1;");
}
