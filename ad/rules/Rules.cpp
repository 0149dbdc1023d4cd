#include "ad/rules/Rules.h"

#include <map>

namespace adjoint::rules {

using namespace ir;

ExprPtr operatorPartial(Op op, const ExprPtr& a, const ExprPtr& b, int i) {
  Type t = (i == 0 ? a : b)->type;
  if (!t.isFloating()) t = (i == 0 ? b : a)->type;
  ExprPtr one = number(1, t);
  // d(a + b)/da = 1;  d(a + b)/db = 1
  if (op == Op::Add) return one;
  // d(a - b)/da = 1;  d(a - b)/db = -1
  if (op == Op::Sub) return i == 0 ? one : neg(one);
  // d(a * b)/da = b;  d(a * b)/db = a
  if (op == Op::Mul) return i == 0 ? b : a;
  // d(a / b)/da = 1 / b;  d(a / b)/db = -a / b^2
  if (op == Op::Div) return i == 0 ? div(one, b) : neg(div(a, mul(b, b)));
  return nullptr;
}

namespace {

// Rebuilds `e` through the folding builders, with parameters replaced and literals retyped.
ExprPtr instantiate(const ExprPtr& e, const std::map<std::string, ExprPtr>& args, const Type& floating) {
  switch (e->kind) {
    case ExprKind::Var: {
      auto it = args.find(e->text);
      return it == args.end() ? e : it->second;
    }
    case ExprKind::Number:
      return e->type.isFloating() ? number(e->value, floating) : e;
    case ExprKind::Constant:
      return namedConstant(e->text, e->value, floating);
    case ExprKind::Bool:
      return e;
    default:
      break;
  }
  std::vector<ExprPtr> ops;
  for (const ExprPtr& op : e->operands) ops.push_back(instantiate(op, args, floating));
  switch (e->kind) {
    case ExprKind::Index:
      return index(ops[0], ops[1]);
    case ExprKind::Unary:
      return unary(e->op, ops[0]);
    case ExprKind::Binary:
      return binary(e->op, ops[0], ops[1]);
    case ExprKind::Select:
      return select(ops[0], ops[1], ops[2]);
    case ExprKind::Cast:
      return e->type.isFloating() ? cast(floating, ops[0]) : cast(e->type, ops[0]);
    case ExprKind::Call: {
      Type t = e->type.isFloating() ? floating : e->type;
      // pow(x, 1) is x: what the power rule gives for squares.
      if (e->text == "std::pow" && isOne(ops[1])) return ops[0];
      return call(e->text, ops, t);
    }
    default:
      return e;
  }
}

}  // namespace

ExprPtr callPartial(const Rule& rule, const Expr& c, size_t i, const ExprPtr& result) {
  if (i >= rule.partials.size() || !rule.partials[i]) return nullptr;
  std::map<std::string, ExprPtr> args;
  for (size_t k = 0; k < rule.params.size() && k < c.operands.size(); ++k) args[rule.params[k]] = c.operands[k];
  if (!rule.result.empty()) args[rule.result] = result ? result : std::make_shared<Expr>(c);
  return instantiate(rule.partials[i], args, c.type.element());
}

const Rule* resultReadingRule(const Module& m, const Expr& value) {
  const Rule* rule = value.kind == ExprKind::Call ? m.rule(value.text) : nullptr;
  return rule && !rule->isLinear() && !rule->result.empty() ? rule : nullptr;
}

// f(.., v, ..) linear in v:  v_bar += pullback(.., y_bar, ..);  y_dot = f(.., v_dot, ..)
ExprPtr linearPullback(const Rule& rule, const Expr& c, const ExprPtr& adj) {
  std::vector<ExprPtr> args = c.operands;
  args.at(static_cast<size_t>(rule.linearArgument)) = adj;
  return call(rule.pullback, args, adj->type);
}

ExprPtr linearTangent(const Rule& rule, const Expr& c, const ExprPtr& dot) {
  std::vector<ExprPtr> args = c.operands;
  args.at(static_cast<size_t>(rule.linearArgument)) = dot;
  return call(c.text, args, c.type);
}

}  // namespace adjoint::rules
