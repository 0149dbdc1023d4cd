#include "ad/derive/ForwardMode.h"

#include "ad/analysis/Activity.h"
#include "ad/ir/Diagnostic.h"
#include "ad/ir/Names.h"
#include "ad/ir/Naming.h"
#include "ad/rules/Rules.h"

namespace adjoint::derive {

namespace {

using namespace ir;

class TangentBuilder {
 public:
  TangentBuilder(const Module& m, const Function& f, const Request& r, Requests& q)
      : m_(m), f_(f), r_(r), q_(q), names_(f) {
    for (const Param* p : differentiatedParams(f, r.wrt)) seeds_.insert(p->name);
    active_ = analysis::variedVariables(f, seeds_, m);
  }

  Function build() {
    Function g;
    g.name = derivativeName(f_, r_.wrt, Mode::Forward, r_.entry);
    g.returnType = f_.returnsFloating() ? f_.returnType : Type::of(Scalar::Void);
    g.params = f_.params;
    g.internal = !r_.entry;
    g.primal = f_.name;
    g.loc = f_.loc;
    for (const Param* p : differentiatedParams(f_, r_.wrt)) {
      Type t = p->type;
      if (t.pointer) t.constPointee = !(isWritten(p->name));
      g.params.push_back(Param{naming::tangentOf(p->name), t, Role::Tangent, p->name});
    }
    for (const Param& p : f_.params)
      if (activeVar(p.name, p.type) && !seeds_.count(p.name))
        g.body.push_back(decl(naming::tangentOf(p.name), p.type, number(0, p.type)));
    StmtList body = list(f_.body);
    g.body.insert(g.body.end(), body.begin(), body.end());
    return g;
  }

 private:
  const Module& m_;
  const Function& f_;
  const Request& r_;
  Requests& q_;
  std::set<std::string> seeds_;
  std::set<std::string> active_;
  NameSet names_;
  SourceLoc at_;  // of the statement whose tangent is being written, for diagnostics

  bool isWritten(const std::string& name) const { return analysis::writtenVariables(f_.body).count(name) > 0; }

  bool activeStruct(const Expr& e) const {
    return e.kind == ExprKind::Var && e.type.isStruct() && active_.count(e.text) && seeds_.count(e.text);
  }

  // A scalar parameter outside `wrt` that the body assigns from active values is active too,
  // with its tangent in a local.
  bool activeVar(const std::string& name, const Type& t) const {
    if (!t.isFloating() || !active_.count(name)) return false;
    const Param* p = f_.param(name);
    return !p || seeds_.count(name) || !p->type.pointer;
  }

  ExprPtr dotOf(const Expr& lvalue) const {
    if (lvalue.kind == ExprKind::Member) {
      const Expr& s = *lvalue.operands[0];
      return member(var(naming::tangentOf(s.text), s.type), lvalue.text);
    }
    if (lvalue.kind == ExprKind::Index) {
      const Expr& a = *lvalue.operands[0];
      return index(var(naming::tangentOf(a.text), a.type), lvalue.operands[1]);
    }
    return var(naming::tangentOf(lvalue.text), lvalue.type);
  }

  // The tangent of e: sum over what e reads of (partial derivative) * (tangent of the read).
  ExprPtr tangent(const ExprPtr& e) {
    Type t = e->type.isFloating() ? e->type : Type::of(Scalar::Double);
    switch (e->kind) {
      case ExprKind::Var:
      case ExprKind::Index:
      case ExprKind::Member:
        return activeVar(rootName(*e), e->type) ? dotOf(*e) : number(0, t);
      case ExprKind::Unary:
        return e->op == Op::Neg ? neg(tangent(e->operands[0])) : number(0, t);
      case ExprKind::Cast:
        return e->type.isFloating() ? cast(e->type, tangent(e->operands[0])) : number(0, t);
      case ExprKind::Select:
        return select(e->operands[0], tangent(e->operands[1]), tangent(e->operands[2]));
      case ExprKind::Binary: {
        ExprPtr sum = number(0, t);
        for (int i = 0; i < 2; ++i) {
          ExprPtr partial = rules::operatorPartial(e->op, e->operands[0], e->operands[1], i);
          if (partial) sum = add(sum, mul(tangent(e->operands[i]), partial));
        }
        return sum;
      }
      case ExprKind::Call:
        return callTangent(*e);
      default:
        return number(0, t);
    }
  }

  // `result`: a variable holding the call's value, for a rule that reads it; null: the call itself.
  ExprPtr callTangent(const Expr& c, const ExprPtr& result = nullptr) {
    if (const Rule* rule = m_.rule(c.text); rule && rule->isLinear())
      return rules::linearTangent(*rule, c, tangent(c.operands[static_cast<size_t>(rule->linearArgument)]));
    if (const Rule* rule = m_.rule(c.text)) {
      ExprPtr sum = number(0, c.type);
      for (size_t i = 0; i < c.operands.size(); ++i) {
        ExprPtr d = tangent(c.operands[i]);
        if (isZero(d)) continue;
        ExprPtr partial = rules::callPartial(*rule, c, i, result);
        if (!partial)
          throw Diagnostic(at_, "no derivative of '" + c.text + "' with respect to argument " + std::to_string(i + 1),
                           "");
        sum = add(sum, mul(d, partial));
      }
      return sum;
    }
    const Function* callee = m_.find(c.text);
    if (!callee || callee->nondifferentiable) return number(0, c.type.isFloating() ? c.type : Type::of(Scalar::Double));
    std::set<std::string> wrt;
    std::vector<ExprPtr> tangents;
    for (size_t i = 0; i < callee->params.size(); ++i) {
      const Param& p = callee->params[i];
      if (!p.type.isDifferentiable() || p.nondifferentiable) continue;
      if (!activeStruct(*c.operands[i]) && isZero(tangent(c.operands[i]))) continue;
      wrt.insert(p.name);
    }
    if (wrt.empty()) return number(0, c.type);
    std::string name = q_.need(*callee, wrt, Mode::Forward);
    std::vector<ExprPtr> args = c.operands;
    for (const Param* p : differentiatedParams(*callee, wrt)) {
      const ExprPtr& arg = c.operands[static_cast<size_t>(p - callee->params.data())];
      PointerArg at = pointerArg(arg);  // x + k: x_dot + k
      if (!p->type.pointer && !p->type.isStruct())
        args.push_back(tangent(arg));
      else if (at.array->kind == ExprKind::Var)
        args.push_back(atOffsetOf(at, var(naming::tangentOf(at.array->text), at.array->type)));
      else
        throw Diagnostic(at_, "an array argument to '" + callee->name + "' must point into an array variable",
                         "pass the array itself, or an offset into it (x + i)");
    }
    return call(name, args, callee->returnsFloating() ? callee->returnType : Type::of(Scalar::Void));
  }

  StmtList list(const StmtList& body) {
    StmtList out;
    for (const StmtPtr& s : body) stmt(s, out);
    return out;
  }

  void stmt(const StmtPtr& s, StmtList& out) {
    if (s->loc.line) at_ = s->loc;
    switch (s->kind) {
      case StmtKind::Decl:
        declaration(s, out);
        return;
      case StmtKind::Assign:
        assignment(s, out);
        return;
      case StmtKind::Eval: {
        if (s->expr->kind == ExprKind::Member) {  // a vector grows (or reserves), and so does its tangent
          const ExprPtr& vector = s->expr->operands[0];
          if (activeVar(vector->text, vector->type)) {
            auto grown = std::make_shared<Expr>(*s->expr);
            grown->operands[0] = var(naming::tangentOf(vector->text), vector->type);
            out.push_back(at(eval(grown), s->loc));
          }
          out.push_back(s);
          return;
        }
        ExprPtr jvp = s->expr->kind == ExprKind::Call && m_.find(s->expr->text) ? callTangent(*s->expr) : nullptr;
        // The callee's jvp also computes what the call computes (its outputs and their tangents).
        out.push_back(jvp && jvp->kind == ExprKind::Call ? at(eval(jvp), s->loc) : s);
        return;
      }
      case StmtKind::Return:
        if (f_.returnsFloating())
          out.push_back(at(ret(tangent(s->expr)), s->loc));
        else
          out.push_back(s);
        return;
      case StmtKind::Block:
      case StmtKind::If:
      case StmtKind::For:
      case StmtKind::While:
      case StmtKind::DoWhile: {
        auto copy = std::make_shared<Stmt>(*s);
        copy->body = list(s->body);
        copy->elseBody = list(s->elseBody);
        out.push_back(copy);
        return;
      }
      default:
        out.push_back(s);
    }
  }

  // A quotient's numerator and denominator that are sums become named intermediates with their tangents
  // (`const double d1_numerator_dot = ...; const double d1_numerator = ...;`), as a hand-written
  // tangent names them, instead of one expression spelling both out.
  ExprPtr namedOperands(const std::string& base, const ExprPtr& e, StmtList& out) {
    if (e->kind != ExprKind::Binary || e->op != Op::Div) return e;
    auto copy = std::make_shared<Expr>(*e);
    const char* roles[] = {"_numerator", "_denominator"};
    for (size_t i = 0; i < 2; ++i) {
      const ExprPtr& operand = e->operands[i];
      ExprPtr dot = tangent(operand);
      bool sum = isOp(*operand, Op::Add) || isOp(*operand, Op::Sub);
      if (!sum || dot->kind == ExprKind::Number || dot->kind == ExprKind::Var) continue;
      std::string name = names_.fresh(base + roles[i]);
      Type t = operand->type;
      t.constant = true;
      out.push_back(at(decl(naming::tangentOf(name), t, dot), at_));
      out.push_back(at(decl(name, t, operand), at_));
      active_.insert(name);
      copy->operands[i] = var(name, operand->type);
    }
    return copy;
  }

  // `v = f(u)` where f's rule reads its result (tanh_dx(x, y) = 1 - y * y) and f does not read v:
  // the tangent, written after the value, reads v instead of evaluating f again.
  bool tangentReadsResult(const Stmt& s, const std::string& v) const {
    return rules::resultReadingRule(m_, *s.expr) && !analysis::readVariables(s.expr).count(v);
  }

  void declaration(const StmtPtr& s, StmtList& out) {
    if (!activeVar(s->name, s->type)) {
      out.push_back(s);
      return;
    }
    if (s->expr && !s->type.isIndexed() && tangentReadsResult(*s, s->name)) {
      out.push_back(s);
      out.push_back(
          at(decl(naming::tangentOf(s->name), s->type, callTangent(*s->expr, var(s->name, s->type))), s->loc));
      return;
    }
    auto d = decl(naming::tangentOf(s->name), s->type, nullptr);
    if (s->expr && !s->type.isIndexed()) {
      ExprPtr value = namedOperands(s->name, s->expr, out);
      if (value != s->expr) {
        auto named = std::make_shared<Stmt>(*s);
        named->expr = value;
        d->expr = tangent(value);
        out.push_back(at(d, s->loc));
        out.push_back(named);
        return;
      }
    }
    if (s->expr)
      d->expr = tangent(s->expr);
    else if (!s->type.isArrayLocal() && !s->type.shared)
      d->expr = number(0, s->type);
    if (s->type.isContainer())
      d->args = s->args;  // its size: zeros, as many as the vector has
    else
      for (const ExprPtr& a : s->args) d->args.push_back(tangent(a));
    out.push_back(at(d, s->loc));
    out.push_back(s);
  }

  void assignment(const StmtPtr& s, StmtList& out) {
    if (!activeVar(rootName(*s->lhs), s->lhs->type)) {
      out.push_back(s);
      return;
    }
    ExprPtr dot = dotOf(*s->lhs);
    if (s->op == Op::Assign && s->lhs->kind == ExprKind::Var && tangentReadsResult(*s, s->lhs->text)) {
      out.push_back(s);
      out.push_back(at(assign(dot, Op::Assign, callTangent(*s->expr, s->lhs)), s->loc));
      return;
    }
    ExprPtr d = tangent(s->expr);
    StmtPtr t;
    if (s->op == Op::Assign || s->op == Op::Add || s->op == Op::Sub) {
      t = assign(dot, s->op, d);
      t->atomic = s->atomic;  // atomicAdd(&y, e): atomicAdd(&y_dot, e')
    } else {
      // (v * e)' = v' e + v e';  (v / e)' = (v' e - v e') / e^2, both from the values before the update.
      ExprPtr product = binary(s->op, s->lhs, s->expr);
      t = assign(dot, Op::Assign, tangent(product));
    }
    // v_dot += 0, and v_dot = v_dot (the tangent of v = v - 1): nothing changes.
    bool trivial = (t->op != Op::Assign && isZero(t->expr)) || (t->op == Op::Assign && sameExpr(*t->expr, *dot));
    if (!trivial) out.push_back(at(t, s->loc));
    out.push_back(s);
  }
};

}  // namespace

Function forwardFunction(const Module& m, const Function& f, const Request& r, Requests& q) {
  return TangentBuilder(m, f, r, q).build();
}

}  // namespace adjoint::derive
