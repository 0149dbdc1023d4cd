#include "ad/ir/Expr.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace adjoint::ir {

namespace {

ExprPtr make(ExprKind kind, const Type& type, std::string text, std::vector<ExprPtr> operands) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->type = type;
  e->text = std::move(text);
  e->operands = std::move(operands);
  return e;
}

ExprPtr makeOp(ExprKind kind, const Type& type, Op op, std::vector<ExprPtr> operands) {
  ExprPtr e = make(kind, type, "", std::move(operands));
  std::const_pointer_cast<Expr>(e)->op = op;
  return e;
}

// The type of a binary arithmetic result: double wins over float wins over int.
Type arithmeticType(const Type& a, const Type& b) {
  auto rank = [](const Type& t) { return t.scalar == Scalar::Double ? 3 : t.scalar == Scalar::Float ? 2 : 1; };
  return (rank(a) >= rank(b) ? a : b).element();
}

std::string spellNumber(double value, const Type& type) {
  if (type.record && type.record->isEnum())  // a value given no enumerator's name (a zeroed local)
    return "static_cast<" + type.spelled + ">(" + std::to_string(static_cast<long long>(value)) + ")";
  if (type.scalar == Scalar::Int && type.isUnsigned && value >= 65536) {  // masks read best in hex: 0xffffffffu
    char hex[24];
    std::snprintf(hex, sizeof hex, "0x%llxu", static_cast<unsigned long long>(value));
    return hex;
  }
  if (type.scalar == Scalar::Int && type.isUnsigned)
    return std::to_string(static_cast<unsigned long long>(value)) + "u";
  if (type.scalar == Scalar::Int) return std::to_string(static_cast<long long>(value));
  // The shortest spelling that reads back as the same value: 0.9, not 0.90000000000000002.
  char buf[40];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, value);
    if (type.scalar == Scalar::Float ? std::strtof(buf, nullptr) == static_cast<float>(value)
                                     : std::strtod(buf, nullptr) == value)
      break;
  }
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  if (type.scalar == Scalar::Float) s += "f";
  return s;
}

bool isNumber(const ExprPtr& e, double v) { return e->kind == ExprKind::Number && e->value == v; }
// Integers beyond 2^53 are not exact in `value`: such literals are never folded.
bool exactNumber(const ExprPtr& e) {
  return e->kind == ExprKind::Number && (e->type.scalar != Scalar::Int || std::fabs(e->value) <= 9007199254740992.0);
}
bool bothNumbers(const ExprPtr& a, const ExprPtr& b) { return exactNumber(a) && exactNumber(b); }

}  // namespace

ExprPtr number(double value, const Type& type) {
  if (type.element().scalar == Scalar::Bool) return boolean(value != 0);
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Number;
  e->type = type.element();
  e->value = value;
  e->text = spellNumber(value, type);
  return e;
}

ExprPtr integerLiteral(double value, const Type& type, std::string spelling) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Number;
  e->type = type.element();
  e->value = value;
  e->text = std::move(spelling);
  return e;
}

ExprPtr namedConstant(const std::string& name, double value, const Type& type) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Constant;
  e->type = type.element();
  e->value = value;
  e->text = name;
  return e;
}

bool isNamedConstant(const std::string& name) {
  static const std::set<std::string> names{"M_E",       "M_LOG2E",  "M_LOG10E", "M_LN2",    "M_LN10",     "M_PI",
                                           "M_PI_2",    "M_PI_4",   "M_1_PI",   "M_2_PI",   "M_2_SQRTPI", "M_SQRT2",
                                           "M_SQRT1_2", "INFINITY", "NAN",      "HUGE_VAL", "HUGE_VALF"};
  return names.count(name) > 0;
}

ExprPtr boolean(bool value) { return make(ExprKind::Bool, Type::of(Scalar::Bool), value ? "true" : "false", {}); }

ExprPtr var(const std::string& name, const Type& type) { return make(ExprKind::Var, type, name, {}); }

ExprPtr index(ExprPtr base, ExprPtr idx) {
  Type t = base->type.element();
  return make(ExprKind::Index, t, "", {std::move(base), std::move(idx)});
}

ExprPtr unary(Op op, ExprPtr e) {
  if (op == Op::Neg) return neg(std::move(e));
  if (op == Op::Not && isOp(*e, Op::Not)) return e->operands[0];
  bool integral =
      e->kind == ExprKind::Binary && !e->operands[0]->type.isFloating() && !e->operands[1]->type.isFloating();
  if (op == Op::Not && integral && isComparison(e->op)) {
    // !(a < b) is a >= b for integers; not for floats, where NaN makes both comparisons false.
    static const Op negated[][2] = {{Op::Lt, Op::Ge}, {Op::Le, Op::Gt}, {Op::Gt, Op::Le},
                                    {Op::Ge, Op::Lt}, {Op::Eq, Op::Ne}, {Op::Ne, Op::Eq}};
    for (const auto& pair : negated)
      if (e->op == pair[0]) return binary(pair[1], e->operands[0], e->operands[1]);
  }
  Type t = op == Op::Not ? Type::of(Scalar::Bool) : op == Op::Deref ? e->type.element() : e->type;
  return makeOp(ExprKind::Unary, t, op, {std::move(e)});
}

ExprPtr binary(Op op, ExprPtr a, ExprPtr b) {
  if (op == Op::Add) return add(std::move(a), std::move(b));
  if (op == Op::Sub) return sub(std::move(a), std::move(b));
  if (op == Op::Mul) return mul(std::move(a), std::move(b));
  if (op == Op::Div) return div(std::move(a), std::move(b));
  Type t = isComparison(op) || isLogical(op) ? Type::of(Scalar::Bool) : arithmeticType(a->type, b->type);
  return makeOp(ExprKind::Binary, t, op, {std::move(a), std::move(b)});
}

ExprPtr call(const std::string& callee, std::vector<ExprPtr> args, const Type& type) {
  return make(ExprKind::Call, type, callee, std::move(args));
}

ExprPtr verbatim(const std::vector<std::string>& pieces, std::vector<ExprPtr> variables, const Type& type) {
  std::string text;
  for (size_t k = 0; k < pieces.size(); ++k) text += (k ? std::string(1, kVerbatimGap) : "") + pieces[k];
  return make(ExprKind::Verbatim, type, text, std::move(variables));
}

ExprPtr select(ExprPtr cond, ExprPtr a, ExprPtr b) {
  if (isZero(a) && isZero(b)) return a;
  Type t = arithmeticType(a->type, b->type);
  return make(ExprKind::Select, t, "", {std::move(cond), std::move(a), std::move(b)});
}

ExprPtr cast(const Type& type, ExprPtr e) {
  if (e->type.element() == type.element()) return e;
  if (exactNumber(e)) return number(e->value, type);
  return make(ExprKind::Cast, type.element(), "", {std::move(e)});
}

// (x + c1) + c2 and (x - c1) + c2 with integer literals c1, c2: one literal, as in `n - 2`.
// (Not for floating types, where regrouping would change the rounding.)
static ExprPtr foldOffsets(const ExprPtr& a, double c, const Type& t) {
  bool offset =
      t.scalar == Scalar::Int && (isOp(*a, Op::Add) || isOp(*a, Op::Sub)) && a->operands[1]->kind == ExprKind::Number;
  if (!offset) return nullptr;
  double total = (a->op == Op::Add ? a->operands[1]->value : -a->operands[1]->value) + c;
  if (total == 0) return cast(t, a->operands[0]);
  return total > 0 ? makeOp(ExprKind::Binary, t, Op::Add, {a->operands[0], number(total, t)})
                   : makeOp(ExprKind::Binary, t, Op::Sub, {a->operands[0], number(-total, t)});
}

ExprPtr method(ExprPtr object, const std::string& call, const Type& type) {
  return make(ExprKind::Member, type, call, {std::move(object)});
}

ExprPtr containerSize(ExprPtr container) {
  return method(std::move(container), "size()", Type::integer("std::size_t", true));
}

ExprPtr appendElement(ExprPtr vector) { return method(std::move(vector), "emplace_back()", Type::of(Scalar::Void)); }
ExprPtr dropLastElement(ExprPtr vector) { return method(std::move(vector), "pop_back()", Type::of(Scalar::Void)); }
// (A Member of more than one operand prints as the method called with the others.)
ExprPtr reserve(ExprPtr vector, ExprPtr count) {
  return make(ExprKind::Member, Type::of(Scalar::Void), "reserve", {std::move(vector), std::move(count)});
}

static bool isContainerMethod(const Expr& e, const char* name) {
  return e.kind == ExprKind::Member && e.operands[0]->type.isContainer() && e.text == name;
}
bool isAppend(const Expr& e) { return isContainerMethod(e, "emplace_back()"); }
bool isDrop(const Expr& e) { return isContainerMethod(e, "pop_back()"); }
bool isResize(const Expr& e) { return isAppend(e) || isDrop(e); }
bool isReserve(const Expr& e) { return isContainerMethod(e, "reserve"); }

ExprPtr member(ExprPtr base, const std::string& field) {
  Type t = Type::of(Scalar::Double);
  if (base->type.record)
    for (const auto& [name, type] : base->type.record->fields)
      if (name == field) t = *type;
  return make(ExprKind::Member, t, field, {std::move(base)});
}

ExprPtr pop(ExprPtr tape) {
  Type t = tape->type.element();
  return make(ExprKind::Pop, t, "", {std::move(tape)});
}

ExprPtr top(ExprPtr tape) {
  Type t = tape->type.element();
  return make(ExprKind::Top, t, "", {std::move(tape)});
}

ExprPtr add(ExprPtr a, ExprPtr b) {
  Type t = arithmeticType(a->type, b->type);
  if (b->kind == ExprKind::Number)
    if (ExprPtr folded = foldOffsets(a, b->value, t)) return folded;
  if (bothNumbers(a, b)) return number(a->value + b->value, t);
  // A literal 0 of type int added to a wider integer leaves it as it is.
  if (isZero(a)) return a->type.scalar == Scalar::Int && b->type.scalar == Scalar::Int ? b : cast(t, std::move(b));
  if (isZero(b)) return cast(t, std::move(a));
  if (isOp(*b, Op::Neg)) return sub(std::move(a), b->operands[0]);
  if (sameExpr(*a, *b)) return mul(number(2, t), std::move(a));
  return makeOp(ExprKind::Binary, t, Op::Add, {std::move(a), std::move(b)});
}

ExprPtr sub(ExprPtr a, ExprPtr b) {
  Type t = arithmeticType(a->type, b->type);
  if (b->kind == ExprKind::Number)
    if (ExprPtr folded = foldOffsets(a, -b->value, t)) return folded;
  if (bothNumbers(a, b)) return number(a->value - b->value, t);
  if (isZero(b)) return cast(t, std::move(a));
  if (isZero(a)) return cast(t, neg(std::move(b)));
  if (isOp(*b, Op::Neg)) return add(std::move(a), b->operands[0]);
  return makeOp(ExprKind::Binary, t, Op::Sub, {std::move(a), std::move(b)});
}

ExprPtr mul(ExprPtr a, ExprPtr b) {
  Type t = arithmeticType(a->type, b->type);
  if (isZero(a) || isZero(b)) return number(0, t);
  if (bothNumbers(a, b)) return number(a->value * b->value, t);
  if (isOne(a)) return cast(t, std::move(b));
  if (isOne(b)) return cast(t, std::move(a));
  if (isNumber(a, -1)) return cast(t, neg(std::move(b)));
  if (isNumber(b, -1)) return cast(t, neg(std::move(a)));
  bool negA = isOp(*a, Op::Neg);
  bool negB = isOp(*b, Op::Neg);
  if (negA && negB) return mul(a->operands[0], b->operands[0]);
  // x * (1 / y) reads better as x / y.
  if (isOp(*b, Op::Div) && isOne(b->operands[0])) return div(std::move(a), b->operands[1]);
  if (negA) return neg(mul(a->operands[0], std::move(b)));
  if (negB) return neg(mul(std::move(a), b->operands[0]));
  return makeOp(ExprKind::Binary, t, Op::Mul, {std::move(a), std::move(b)});
}

ExprPtr div(ExprPtr a, ExprPtr b) {
  Type t = arithmeticType(a->type, b->type);
  if (isZero(a)) return number(0, t);
  if (isOne(b)) return cast(t, std::move(a));
  if (isOp(*a, Op::Neg)) return neg(div(a->operands[0], std::move(b)));
  return makeOp(ExprKind::Binary, t, Op::Div, {std::move(a), std::move(b)});
}

ExprPtr refold(const ExprPtr& e) {
  if (e->kind == ExprKind::Number || e->kind == ExprKind::Var) return e;
  std::vector<ExprPtr> operands;
  for (const ExprPtr& o : e->operands) operands.push_back(refold(o));
  if (e->kind == ExprKind::Binary) switch (e->op) {
      case Op::Add:
        return add(operands[0], operands[1]);
      case Op::Sub:
        return sub(operands[0], operands[1]);
      case Op::Mul:
        return mul(operands[0], operands[1]);
      case Op::Div:
        return div(operands[0], operands[1]);
      default:
        break;
    }
  auto copy = std::make_shared<Expr>(*e);
  copy->operands = std::move(operands);
  return copy;
}

ExprPtr neg(ExprPtr a) {
  if (a->kind == ExprKind::Number) return number(-a->value, a->type);
  if (isOp(*a, Op::Neg)) return a->operands[0];
  Type t = a->type;
  return makeOp(ExprKind::Unary, t, Op::Neg, {std::move(a)});
}

ExprPtr deref(ExprPtr pointer) {
  Type t = pointer->type.element();
  return makeOp(ExprKind::Unary, t, Op::Deref, {std::move(pointer)});
}

PointerArg pointerArg(const ExprPtr& arg) {
  PointerArg p{arg, nullptr};
  for (; isOp(*p.array, Op::Add) && p.array->operands[0]->type.isIndexed(); p.array = p.array->operands[0])
    p.offset = p.offset ? add(p.array->operands[1], p.offset) : p.array->operands[1];
  return p;
}

ExprPtr atOffsetOf(const PointerArg& arg, ExprPtr array) {
  return arg.offset ? binary(Op::Add, std::move(array), arg.offset) : array;
}

const Expr& stripCasts(const Expr& e) { return e.kind == ExprKind::Cast ? stripCasts(*e.operands[0]) : e; }

std::pair<const Expr*, double> literalOffset(const Expr& index) {
  if (isOp(index, Op::Add) && index.operands[1]->kind == ExprKind::Number && !index.operands[1]->type.isFloating())
    return {index.operands[0].get(), index.operands[1]->value};
  return {&index, 0};
}

bool isZero(const ExprPtr& e) { return e->kind == ExprKind::Number && e->value == 0; }
bool isOne(const ExprPtr& e) { return e->kind == ExprKind::Number && e->value == 1; }

bool isBarrier(const Expr& e) {
  return e.kind == ExprKind::Call && (e.text == "__syncthreads" || e.text == "__syncwarp");
}

bool isComparison(Op op) {
  return op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge || op == Op::Eq || op == Op::Ne;
}
bool isLogical(Op op) { return op == Op::And || op == Op::Or; }
bool isOp(const Expr& e, Op op) { return (e.kind == ExprKind::Unary || e.kind == ExprKind::Binary) && e.op == op; }

const char* spelling(Op op) {
  static const char* const spellings[] = {"=",  "+",  "-",  "*",  "/", "%", "<", "<=", ">", ">=", "==", "!=",
                                          "&&", "||", "<<", ">>", "&", "|", "^", "-",  "!", "*",  "&"};
  return spellings[static_cast<int>(op)];
}

std::string assignmentSpelling(Op op) { return op == Op::Assign ? "=" : std::string(spelling(op)) + "="; }

const std::string& rootName(const Expr& lvalue) {
  const Expr* e = &lvalue;
  while (e->kind == ExprKind::Index || e->kind == ExprKind::Member || isOp(*e, Op::Deref)) e = e->operands[0].get();
  return e->text;
}

bool sameExpr(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || a.text != b.text || a.op != b.op || a.operands.size() != b.operands.size()) return false;
  if ((a.kind == ExprKind::Number || a.kind == ExprKind::Constant) && a.value != b.value) return false;
  for (size_t i = 0; i < a.operands.size(); ++i)
    if (!sameExpr(*a.operands[i], *b.operands[i])) return false;
  return true;
}

bool reads(const ExprPtr& e, const std::string& name) {
  bool found = false;
  walk(e, [&](const Expr& x) { found |= x.kind == ExprKind::Var && x.text == name; });
  return found;
}

bool fromVariablesAlone(const ExprPtr& e) {
  bool ok = true;
  walk(e, [&](const Expr& x) {
    bool value =
        x.kind == ExprKind::Var || x.kind == ExprKind::Number || x.kind == ExprKind::Binary || x.kind == ExprKind::Cast;
    ok &= value || (x.kind == ExprKind::Unary && x.op == Op::Neg);
  });
  return ok;
}

}  // namespace adjoint::ir
