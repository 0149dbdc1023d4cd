// The numerical algorithms of <numeric> and <algorithm> users call on the ranges Adjoint indexes,
// converted to the loops they run (see Converter::lowerAlgorithm): std::accumulate,
// std::inner_product, *std::max_element and *std::min_element; and, as statements, the ones that
// write a range (Converter::lowerRangeWrite): std::transform, std::copy and std::fill.
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

namespace {

// The value an expression reads, through parentheses, temporaries and the casts that change no
// value.
const Expr* read(const Expr* e) {
  while (true) {
    e = e->IgnoreParens();
    if (const auto* c = dyn_cast<ImplicitCastExpr>(e);
        c && (c->getCastKind() == CK_LValueToRValue || c->getCastKind() == CK_NoOp))
      e = c->getSubExpr();
    else if (const auto* w = dyn_cast<ExprWithCleanups>(e))
      e = w->getSubExpr();
    else if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e))
      e = m->getSubExpr();
    else if (const auto* b = dyn_cast<CXXBindTemporaryExpr>(e))
      e = b->getSubExpr();
    else
      return e;
  }
}

// The call of std::accumulate, std::inner_product, or the one *std::max_element / min_element
// dereferences (its iterator's operator* for containers).
const CallExpr* algorithmCall(const Expr* e) {
  const Expr* inner = read(e);
  if (const auto* deref = dyn_cast<UnaryOperator>(inner); deref && deref->getOpcode() == UO_Deref)
    inner = read(deref->getSubExpr());
  else if (const auto* star = dyn_cast<CXXOperatorCallExpr>(inner); star && star->getOperator() == OO_Star)
    inner = read(star->getArg(0));
  const auto* call = dyn_cast<CallExpr>(inner);
  const FunctionDecl* fd = call ? call->getDirectCallee() : nullptr;
  if (!fd) return nullptr;
  std::string name = fd->getQualifiedNameAsString();
  bool known = name == "std::accumulate" || name == "std::inner_product" || name == "std::max_element" ||
               name == "std::min_element";
  return known ? call : nullptr;
}

// The variable a range's end points are written in: x of x.begin(), x.cbegin() and std::begin(x)
// (`method` "begin"), or x itself (a pointer or an array).
const DeclRefExpr* rangeBase(const Expr* e, const std::string& method) {
  e = e->IgnoreParenImpCasts();
  if (const auto* m = dyn_cast<CXXMemberCallExpr>(e)) {
    std::string name = m->getMethodDecl()->getNameAsString();
    if (name != method && name != "c" + method) return nullptr;
    e = m->getImplicitObjectArgument()->IgnoreParenImpCasts();
  } else if (const auto* c = dyn_cast<CallExpr>(e)) {
    const FunctionDecl* fd = c->getDirectCallee();
    if (!fd || c->getNumArgs() != 1 || fd->getQualifiedNameAsString() != "std::" + method) return nullptr;
    e = c->getArg(0)->IgnoreParenImpCasts();
  }
  return dyn_cast<DeclRefExpr>(e);
}

// std::plus<T>() and the other function objects of <functional> for arithmetic: the IR's
// operator (Op::Sub of std::negate: its one operand negated), or none.
std::optional<ir::Op> functionObjectOp(const Expr* e) {
  const auto* spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(e->getType()->getAsCXXRecordDecl());
  if (!spec || !spec->isInStdNamespace()) return std::nullopt;
  std::string name = spec->getName().str();
  if (name == "plus") return ir::Op::Add;
  if (name == "minus" || name == "negate") return ir::Op::Sub;
  if (name == "multiplies") return ir::Op::Mul;
  if (name == "divides") return ir::Op::Div;
  return std::nullopt;
}

// A lambda's call operator; of a generic lambda, the instantiation for the types of the elements
// `args` (a program may call it at several: [](auto v) on ints and on doubles), null where none is.
const CXXMethodDecl* callOperator(const CXXRecordDecl* closure, const std::vector<ir::ExprPtr>& args,
                                  const ASTContext& ctx) {
  const CXXMethodDecl* op = closure->getLambdaCallOperator();
  const FunctionTemplateDecl* generic = op->getDescribedFunctionTemplate();
  if (!generic) return op;
  auto takes = [&](QualType t, const ir::Type& element) {
    t = t.getNonReferenceType();
    if (!element.isFloating()) return t->isIntegralOrEnumerationType();
    return t->isRealFloatingType() && ctx.getTypeSize(t) == (element.scalar == ir::Scalar::Float ? 32u : 64u);
  };
  for (const FunctionDecl* instance : generic->specializations()) {
    bool matches = instance->getNumParams() == args.size();
    for (unsigned i = 0; matches && i < args.size(); ++i)
      matches = takes(instance->getParamDecl(i)->getType(), args[i]->type.element());
    if (matches) return cast<CXXMethodDecl>(instance);
  }
  return nullptr;
}

// The operator() of a struct of the program's (not a template).
const CXXMethodDecl* functionObjectOperator(const CXXRecordDecl* record) {
  for (const CXXMethodDecl* m : record->methods())
    if (m->getOverloadedOperator() == OO_Call) return m;
  return nullptr;
}

}  // namespace

bool Converter::isAlgorithm(const Expr* e) const { return algorithmCall(e) != nullptr; }

bool Converter::isRangeWrite(const CallExpr* call) const {
  const FunctionDecl* fd = call ? call->getDirectCallee() : nullptr;
  std::string name = fd ? fd->getQualifiedNameAsString() : "";
  return name == "std::transform" || name == "std::copy" || name == "std::fill";
}

// The values a range's first element `first` starts: x of x.begin(), std::begin(x), or a pointer
// or array x; null after reporting.
ir::ExprPtr Converter::rangeStart(const Expr* first) {
  if (const DeclRefExpr* base = rangeBase(first, "begin")) return convertExpr(base);
  indexedRange(first, first);  // reports the range
  return nullptr;
}

// The function an operation names: `f` or `&f` (a function of the program, of the math library,
// an instantiation of a template), null for anything else.
static const FunctionDecl* namedFunction(const Expr* op) {
  const Expr* e = op->IgnoreParenImpCasts();
  if (const auto* address = dyn_cast<UnaryOperator>(e); address && address->getOpcode() == UO_AddrOf)
    e = address->getSubExpr()->IgnoreParenImpCasts();
  const auto* ref = dyn_cast<DeclRefExpr>(e);
  return ref ? dyn_cast<FunctionDecl>(ref->getDecl()) : nullptr;
}

// `op` of std::transform applied to `args`: a lambda (written in the call, or a local naming one),
// a function named (called as the program calls it) or an arithmetic function object
// (std::plus<double>()).
ir::ExprPtr Converter::applyOperation(const Expr* op, const std::vector<ir::ExprPtr>& args, ir::StmtList& out) {
  // A function or operator() taking the elements, by value or const reference.
  auto takesElements = [&](const FunctionDecl* fd) {
    bool scalars = fd->getNumParams() == args.size();
    for (const ParmVarDecl* p : fd->parameters()) {
      QualType t = p->getType();
      scalars &= t.getNonReferenceType()->isArithmeticType() &&
                 (!t->isReferenceType() || t.getNonReferenceType().isConstQualified());
    }
    return scalars;
  };
  if (const FunctionDecl* fd = namedFunction(op)) {
    if (!takesElements(fd))
      return unsupportedExpr(op, "'" + fd->getNameAsString() + "' as the operation of std::transform is not supported",
                             "an operation named takes the elements, by value or const reference");
    auto type = convertType(fd->getReturnType(), op->getSourceRange());
    return type ? callOf(fd, args, *type, op) : placeholder();
  }
  const Expr* value = structValue(op);
  if (std::optional<ir::Op> o = functionObjectOp(value))
    return args.size() == 1 ? ir::neg(args[0]) : ir::binary(*o, args[0], args[1]);
  const CXXRecordDecl* closure = value->getType()->getAsCXXRecordDecl();
  // A function object of the program's own: its const operator() inlined on the object for each
  // element (std::transform takes the object by value: one that changes itself changes a copy).
  if (const CXXMethodDecl* call = closure && !closure->isLambda() ? functionObjectOperator(closure) : nullptr) {
    const FunctionDecl* def = call->getDefinition();
    if (!def || call->isVirtual() || !call->isConst() || !isOwnDifferentiated(def) || !takesElements(def))
      return unsupportedExpr(op, "this function object as the operation of std::transform is not supported",
                             "give the struct a const operator() taking the elements by value or const reference");
    return inlineCall(op, def, value, "a function object's operator()", {}, &args);
  }
  if (const auto* lambda = dyn_cast<LambdaExpr>(value)) {
    if (!nameLambda(lambda, freshName("op"), out)) return placeholder();
  } else if (!closure || !closure->isLambda() || !isa<DeclRefExpr>(value)) {
    return unsupportedExpr(op, "this operation of std::transform is not supported",
                           "pass a lambda, a function, or a function object of <functional> (std::plus<double>())");
  }
  const CXXMethodDecl* call = callOperator(closure, args, ctx_);
  if (!call)
    return unsupportedExpr(op, "no instantiation of this generic lambda takes the elements' types",
                           "write the lambda's parameter types out");
  return lambdaCall(call, args, op);
}

// std::transform(first, last, out, op):         out[k] = op(x[k])
// std::transform(first1, last1, first2, out, op): out[k] = op(x[k], y[k])
// std::copy(first, last, out):                   out[k] = x[k]
// std::fill(first, last, value):                 x[k] = value
// each over the range [first, last), as the loop `out` gets.
void Converter::lowerRangeWrite(const CallExpr* call, ir::StmtList& out) {
  std::string callee = call->getDirectCallee()->getQualifiedNameAsString();
  unsigned args = callee == "std::transform" ? (call->getNumArgs() == 5 ? 5 : 4) : 3;
  if (call->getNumArgs() != args) {
    unsupportedExpr(call, "this call of " + callee + " is not supported", "call it on one range (first, last)");
    return;
  }
  std::optional<IndexedRange> range = indexedRange(call->getArg(0), call->getArg(1));
  if (!range) return;
  std::string k = freshName("k");
  ir::ExprPtr counter = ir::var(k, sizeType());
  ir::ExprPtr target = callee == "std::fill" ? range->values : rangeStart(call->getArg(args == 5 ? 3 : 2));
  if (!target) return;
  ir::ExprPtr value;
  ir::StmtList body;
  if (callee == "std::fill") {
    value = convertExpr(call->getArg(2));
  } else if (callee == "std::copy") {
    value = ir::index(range->values, counter);
  } else {
    std::vector<ir::ExprPtr> operands = {ir::index(range->values, counter)};
    if (args == 5) {
      ir::ExprPtr second = rangeStart(call->getArg(2));
      if (!second) return;
      operands.push_back(ir::index(second, counter));
    }
    PreludeTo perElement(prelude_, &body);  // (an inlined operation's statements, in the loop)
    value = applyOperation(call->getArg(args - 1), operands, out);
  }
  ir::ExprPtr element = ir::index(target, counter);
  body.push_back(ir::assign(element, ir::Op::Assign, ir::cast(element->type, value)));
  out.push_back(ir::at(countedLoop(k, range->length, body), loc(call->getBeginLoc())));
}

// An algorithm inside an expression: its loops go before the statement, its value in a local.
ir::ExprPtr Converter::algorithmValue(const Expr* e) {
  if (!prelude_) return needsNoStatements(e, "this algorithm");
  return lowerAlgorithm(e, freshName("sum"), *prelude_);
}

// [first, last) as the values it indexes and its length: x.begin(), x.end() (or std::begin(x),
// std::end(x)) of one container or array, or p, p + n of a pointer or array. Null after reporting.
std::optional<Converter::IndexedRange> Converter::indexedRange(const Expr* first, const Expr* last) {
  const DeclRefExpr* begin = rangeBase(first, "begin");
  const DeclRefExpr* end = rangeBase(last, "end");
  const auto* plus = dyn_cast<BinaryOperator>(last->IgnoreParenImpCasts());
  const DeclRefExpr* offsetBase = plus && plus->getOpcode() == BO_Add ? rangeBase(plus->getLHS(), "begin") : nullptr;
  if (begin && end && begin->getDecl() == end->getDecl()) {
    ir::ExprPtr values = convertExpr(begin);
    return IndexedRange{values, lengthOf(values)};
  }
  if (begin && offsetBase && begin->getDecl() == offsetBase->getDecl())
    return IndexedRange{convertExpr(begin), ir::cast(sizeType(), convertExpr(plus->getRHS()))};
  fail(first->getSourceRange(), "this range is not supported here",
       "give the algorithm x.begin(), x.end() of a std::vector or std::array, std::begin(a), std::end(a) of an "
       "array, or p, p + n of a pointer");
  return std::nullopt;
}

// std::accumulate(first, last, init): T name = init; then name += x[k] over the range (in T, the
// type of init, as std::accumulate adds).
// std::inner_product(first1, last1, first2, init): the same with name += x[k] * y[k].
// *std::max_element(first, last): the index of the first largest element, found by a loop,
// and that element (min_element: the first smallest).
// The loops are appended to `out`; the result is returned: `name`, or the element.
ir::ExprPtr Converter::lowerAlgorithm(const Expr* e, const std::string& name, ir::StmtList& out) {
  const CallExpr* call = algorithmCall(e);
  std::string callee = call->getDirectCallee()->getQualifiedNameAsString();
  bool fold = callee == "std::accumulate" || callee == "std::inner_product";
  unsigned args = fold ? (callee == "std::accumulate" ? 3 : 4) : 2;
  if (call->getNumArgs() != args || (!fold && read(e) == call)) {
    return unsupportedExpr(call, "this call of " + callee + " is not supported",
                           fold ? "call it without an operation (the sum, or the sum of products, is differentiated)"
                                : "read the element it finds: *" + callee + "(first, last)");
  }
  std::optional<IndexedRange> range = indexedRange(call->getArg(0), call->getArg(1));
  if (!range) return placeholder();
  ir::SourceLoc at = loc(call->getBeginLoc());
  std::string k = freshName("k");
  ir::ExprPtr counter = ir::var(k, sizeType());
  ir::ExprPtr element = ir::index(range->values, counter);
  if (fold) {
    auto t = convertType(call->getType(), call->getSourceRange());
    if (!t) return placeholder();
    ir::ExprPtr result = ir::var(name, *t);
    out.push_back(ir::at(ir::decl(name, *t, convertExpr(call->getArg(args - 1))), at));
    if (callee == "std::inner_product") {
      const DeclRefExpr* second = rangeBase(call->getArg(2), "begin");
      if (!second) {
        indexedRange(call->getArg(2), call->getArg(2));  // reports the range
        return placeholder();
      }
      element = ir::mul(element, ir::index(convertExpr(second), counter));
    }
    out.push_back(ir::at(countedLoop(k, range->length, {ir::assign(result, ir::Op::Add, element)}), at));
    return result;
  }
  bool largest = callee == "std::max_element";
  std::string found = freshName(largest ? "largest" : "smallest");
  ir::ExprPtr best = ir::var(found, sizeType());
  ir::ExprPtr bestValue = ir::index(range->values, best);
  ir::ExprPtr better =
      largest ? ir::binary(ir::Op::Lt, bestValue, element) : ir::binary(ir::Op::Lt, element, bestValue);
  out.push_back(ir::at(ir::decl(found, sizeType(), ir::number(0, sizeType())), at));
  out.push_back(
      ir::at(countedLoop(k, range->length, {ir::ifStmt(better, {ir::assign(best, ir::Op::Assign, counter)})}), at));
  return bestValue;
}

}  // namespace adjoint::frontend::detail
