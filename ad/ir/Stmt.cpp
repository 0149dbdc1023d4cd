#include "ad/ir/Stmt.h"

namespace adjoint::ir {

namespace {
StmtPtr make(StmtKind kind) {
  auto s = std::make_shared<Stmt>();
  s->kind = kind;
  return s;
}
}  // namespace

const char* heading(Section s) {
  switch (s) {
    case Section::Recorded:
      return "recorded by the forward sweep for the reverse sweep";
    case Section::Forward:
      return "forward sweep";
    case Section::Reverse:
      return "reverse sweep";
    case Section::None:
      break;
  }
  return "";
}

StmtPtr block(StmtList body) {
  auto s = make(StmtKind::Block);
  s->body = std::move(body);
  return s;
}

StmtPtr decl(const std::string& name, const Type& type, ExprPtr init) {
  auto s = make(StmtKind::Decl);
  s->name = name;
  s->type = type;
  s->expr = std::move(init);
  return s;
}

StmtPtr assign(ExprPtr lhs, Op op, ExprPtr rhs) {
  auto s = make(StmtKind::Assign);
  s->lhs = std::move(lhs);
  s->op = op;
  s->expr = std::move(rhs);
  return s;
}

StmtPtr eval(ExprPtr e) {
  auto s = make(StmtKind::Eval);
  s->expr = std::move(e);
  return s;
}

StmtPtr ifStmt(ExprPtr cond, StmtList then, StmtList otherwise) {
  auto s = make(StmtKind::If);
  s->expr = std::move(cond);
  s->body = std::move(then);
  s->elseBody = std::move(otherwise);
  return s;
}

StmtPtr forStmt(StmtPtr init, ExprPtr cond, StmtPtr step, StmtList body) {
  auto s = make(StmtKind::For);
  s->init = std::move(init);
  s->expr = std::move(cond);
  s->step = std::move(step);
  s->body = std::move(body);
  return s;
}

StmtPtr whileStmt(ExprPtr cond, StmtList body) {
  auto s = make(StmtKind::While);
  s->expr = std::move(cond);
  s->body = std::move(body);
  return s;
}

StmtPtr jump(StmtKind kind) { return make(kind); }

StmtPtr ret(ExprPtr value) {
  auto s = make(StmtKind::Return);
  s->expr = std::move(value);
  return s;
}

StmtPtr launch(ExprPtr kernelCall, std::vector<ExprPtr> config) {
  auto s = make(StmtKind::Launch);
  s->expr = std::move(kernelCall);
  s->args = std::move(config);
  return s;
}

StmtPtr push(ExprPtr tape, ExprPtr value) {
  auto s = make(StmtKind::Push);
  s->lhs = std::move(tape);
  s->expr = std::move(value);
  return s;
}

StmtPtr withComment(StmtPtr s, std::string comment) {
  s->comment = std::move(comment);
  return s;
}

StmtPtr at(StmtPtr s, SourceLoc loc) {
  s->loc = loc;
  return s;
}

static StmtPtr cloneStmt(const StmtPtr& s) {
  if (!s) return s;
  auto copy = std::make_shared<Stmt>(*s);
  copy->init = cloneStmt(s->init);
  copy->step = cloneStmt(s->step);
  copy->body = clone(s->body);
  copy->elseBody = clone(s->elseBody);
  return copy;
}

StmtList clone(const StmtList& body) {
  StmtList out;
  for (const StmtPtr& s : body) out.push_back(cloneStmt(s));
  return out;
}

bool isLoop(StmtKind k) { return k == StmtKind::For || k == StmtKind::While || k == StmtKind::DoWhile; }

bool jumpsOut(const Stmt& s, bool insideLoop) {
  if (s.kind == StmtKind::Return) return true;
  if (s.kind == StmtKind::Break || s.kind == StmtKind::Continue) return !insideLoop;
  bool loop = insideLoop || isLoop(s.kind);
  for (const StmtPtr& c : s.body)
    if (jumpsOut(*c, loop)) return true;
  for (const StmtPtr& c : s.elseBody)
    if (jumpsOut(*c, loop)) return true;
  return false;
}

int mentions(const Stmt& s, const std::string& name) {
  int n = 0;
  walkExprs(StmtList{std::make_shared<Stmt>(s)},
            [&](const Expr& e) { n += e.kind == ExprKind::Var && e.text == name; });
  return n;
}

}  // namespace adjoint::ir
