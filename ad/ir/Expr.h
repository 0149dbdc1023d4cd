// Expressions of the IR. They are immutable trees shared by pointer, so the derivative of an
// expression can reuse its subtrees. The builders fold the trivial algebra (x*1, x+0, 0*x, --x)
// that differentiation produces, which is what keeps zero adjoints out of the generated code.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ad/ir/Type.h"

namespace adjoint::ir {

// The operators of unary and binary expressions, and of assignments (Stmt::op).
enum class Op : unsigned char {
  Assign,  // a plain assignment (statements only): x = e
  Add,
  Sub,
  Mul,
  Div,
  Rem,  // + - * / %
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,  // < <= > >= == !=
  And,
  Or,  // && ||
  Shl,
  Shr,
  BitAnd,
  BitOr,
  BitXor,  // << >> & | ^ (integers)
  Neg,
  Not,
  Deref,
  AddressOf,  // -e !e *p &x
};
// How C++ spells the operator: "+", "<<", "-" for Neg, "&" for AddressOf ("=" for Assign).
const char* spelling(Op op);
// How C++ spells the assignment with this operator: "=", "+=", "<<=".
std::string assignmentSpelling(Op op);

enum class ExprKind {
  Number,    // floating or integer literal; text holds its spelling, value its value
  Constant,  // a named constant of <cmath> (text M_2_SQRTPI, M_LN2, ...), value its value
  Bool,      // true / false
  Var,       // a named variable or parameter
  Index,     // operands[0][operands[1]]
  Unary,     // op: Neg, Not, Deref (of a pointer to one value), AddressOf
  Binary,    // op: Add ... BitXor
  Call,      // text is the callee as emitted; math functions are spelled "std::sin", "std::pow", ...
  Select,    // operands[0] ? operands[1] : operands[2]
  Cast,      // (type) operands[0]
  Member,    // operands[0].text, or operands[0]->text when operands[0] is a pointer (text "size()": a method)
  Pop,       // the value last pushed on the tape operands[0], taken off it (it has an effect: never shared or dropped)
  Top,       // the value last pushed on the tape operands[0], left on it
  // Code as the program wrote it that carries no derivative (a random engine's draw, output): its
  // pieces of source in text around the operands (kVerbatimGap between them), each operand a
  // variable of the program, so that renaming reaches it. It has an effect: never dropped or
  // evaluated again.
  Verbatim,
};
inline constexpr char kVerbatimGap = '\x1f';

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  ExprKind kind;
  Type type;
  Op op = Op::Assign;  // Unary and Binary only
  std::string text;    // a Number's spelling, a Var's name, a Call's callee, a Member's field
  double value = 0;
  std::vector<ExprPtr> operands;
};

ExprPtr number(double value, const Type& type);
// An integer literal as the source spells it (`0x5851f42d4c957f2dULL`); `value` may be rounded.
ExprPtr integerLiteral(double value, const Type& type, std::string spelling);
// A named constant of <cmath> (M_PI, M_2_SQRTPI, ...) in a floating type: generated code names it
// as the source does instead of spelling its seventeen digits.
ExprPtr namedConstant(const std::string& name, double value, const Type& type);
// Whether `name` is one of those constants (the M_ macros of <cmath>).
bool isNamedConstant(const std::string& name);
ExprPtr boolean(bool value);
ExprPtr var(const std::string& name, const Type& type);
ExprPtr index(ExprPtr base, ExprPtr idx);
ExprPtr unary(Op op, ExprPtr e);
ExprPtr binary(Op op, ExprPtr a, ExprPtr b);
ExprPtr call(const std::string& callee, std::vector<ExprPtr> args, const Type& type);
// Source `pieces` around `variables` (one piece more than variables), as the program wrote them.
ExprPtr verbatim(const std::vector<std::string>& pieces, std::vector<ExprPtr> variables, const Type& type);
ExprPtr select(ExprPtr cond, ExprPtr a, ExprPtr b);
ExprPtr cast(const Type& type, ExprPtr e);
ExprPtr member(ExprPtr base, const std::string& field);
// Tapes (Type::tape): the last value pushed, taken off (pop) or left on (top).
ExprPtr pop(ExprPtr tape);
ExprPtr top(ExprPtr tape);
// A container's method that reads it, called without arguments: x.size(), x.empty().
ExprPtr method(ExprPtr object, const std::string& call, const Type& type);
// x.size() (a std::size_t).
ExprPtr containerSize(ExprPtr container);
// A local std::vector growing by one element (x.emplace_back(), the new element zero) and
// shrinking by its last (x.pop_back(), what the reverse sweep does where the forward grew it), and
// x.reserve(n), which changes no value.
ExprPtr appendElement(ExprPtr vector);
ExprPtr dropLastElement(ExprPtr vector);
ExprPtr reserve(ExprPtr vector, ExprPtr count);
// Whether e is one of those on a container (Eval statements).
bool isAppend(const Expr& e);
bool isDrop(const Expr& e);    // v.pop_back()
bool isResize(const Expr& e);  // either: v.size() changes
bool isReserve(const Expr& e);

// Arithmetic with folding of literal zeros and ones.
ExprPtr add(ExprPtr a, ExprPtr b);
ExprPtr sub(ExprPtr a, ExprPtr b);
ExprPtr mul(ExprPtr a, ExprPtr b);
ExprPtr div(ExprPtr a, ExprPtr b);
ExprPtr neg(ExprPtr a);
ExprPtr deref(ExprPtr pointer);

// A pointer argument of a call or launch as the array it points into and the offset: p (offset
// null), p + k, and (p + a) + b as p + (a + b).
struct PointerArg {
  ExprPtr array, offset;
};
PointerArg pointerArg(const ExprPtr& arg);
// `array` at arg's offset: array + k, or array itself.
ExprPtr atOffsetOf(const PointerArg& arg, ExprPtr array);
// e built again through the builders above: what a substitution made foldable (0 * n, (l - 1) + 1)
// is folded.
ExprPtr refold(const ExprPtr& e);

bool isZero(const ExprPtr& e);
bool isOne(const ExprPtr& e);
bool isComparison(Op op);
bool isLogical(Op op);
// Whether e is the unary or binary expression `op ...`.
bool isOp(const Expr& e, Op op);
// The variable an lvalue (x, x[i], s.f, *p) names.
const std::string& rootName(const Expr& lvalue);
// Whether `e` is a call of a CUDA barrier (__syncthreads, __syncwarp).
bool isBarrier(const Expr& e);
bool sameExpr(const Expr& a, const Expr& b);
// Calls visit(e) for e and all its subexpressions, parents first.
template <class F>
void walk(const ExprPtr& e, F&& visit) {
  if (!e) return;
  visit(*e);
  for (const ExprPtr& op : e->operands) walk(op, visit);
}
// e without the casts around it.
const Expr& stripCasts(const Expr& e);
// An index r + k for an integer literal k, as {r, k}; any other index as {itself, 0}: the lanes of
// a vector (x[4 * i], x[4 * i + 1], ...) share their r.
std::pair<const Expr*, double> literalOffset(const Expr& index);
// Whether e reads the variable `name`.
bool reads(const ExprPtr& e, const std::string& name);
// Whether evaluating `e` computes from variables alone: no load, no call.
bool fromVariablesAlone(const ExprPtr& e);

}  // namespace adjoint::ir
