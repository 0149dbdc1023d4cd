// std::vector and std::array: indexing, the methods that read them, and range-based for loops
// (over containers and arrays) converted to what they mean on an indexed value (see Converter.h).
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

ir::Type sizeType() { return ir::Type::integer("std::size_t", true); }

ir::ExprPtr lengthOf(const ir::ExprPtr& values) {
  return values->type.arraySize > 0 ? ir::number(values->type.arraySize, sizeType()) : ir::containerSize(values);
}

// v[v.size() - 1], as v.back() reads it.
ir::ExprPtr lastOf(const ir::ExprPtr& vector) {
  return ir::index(vector, ir::binary(ir::Op::Sub, lengthOf(vector), ir::number(1, sizeType())));
}

ir::StmtPtr countedLoop(const std::string& k, const ir::ExprPtr& length, ir::StmtList body) {
  ir::ExprPtr counter = ir::var(k, sizeType());
  return ir::forStmt(ir::decl(k, sizeType(), ir::number(0, sizeType())), ir::binary(ir::Op::Lt, counter, length),
                     ir::assign(counter, ir::Op::Add, ir::number(1, sizeType())), std::move(body));
}

// x[i] on a container: the element, as on an array (the index as written, without the implicit
// conversion to size_type).
ir::ExprPtr Converter::convertSubscript(const CXXOperatorCallExpr* op) {
  return ir::index(convertExpr(op->getArg(0)), convertExpr(op->getArg(1)->IgnoreImpCasts()));
}

// The methods that read a container: size(), empty(), at(i) (x[i]: the bounds check is the
// forward's, which ran first), front() and back(). Those that change a local vector's size are
// statements (lowerResizing); others (insert, erase, assign) change it in ways the reverse sweep
// does not follow.
ir::ExprPtr Converter::convertContainerCall(const CXXMemberCallExpr* call) {
  std::string name = call->getMethodDecl()->getNameAsString();
  ir::ExprPtr object = convertExpr(call->getImplicitObjectArgument());
  ir::ExprPtr size = lengthOf(object);
  if (name == "size") return size;
  if (name == "empty") return ir::binary(ir::Op::Eq, size, ir::number(0, sizeType()));
  if (name == "at" && call->getNumArgs() == 1) return ir::index(object, convertExpr(call->getArg(0)->IgnoreImpCasts()));
  if (name == "front") return ir::index(object, ir::number(0, sizeType()));
  if (name == "back") return lastOf(object);
  return unsupportedExpr(call, "'" + name + "' on a " + object->type.container + " is not supported here",
                         "differentiated code reads and writes the elements of containers it is given (x[i], "
                         "x.at(i), x.size()); size them before the call");
}

ir::Type localContainer(const ir::Type& container) {
  if (container.container == "std::array") {
    ir::Type array = container.element();
    array.arraySize = container.containerSize;
    return array;
  }
  ir::Type vector = container;
  vector.pointer = vector.constPointee = false;
  return vector;
}

static bool isEmptyList(const Expr* init) {
  const auto* list = dyn_cast_or_null<InitListExpr>(init);
  return list && list->getNumInits() == 0;
}

// A local std::array is an array of its length (`std::array<double, 3> a{}` is `double a[3] = {}`);
// a local std::vector is declared with its size (`std::vector<double> t(n)`, and `t(n, v)` sized
// then assigned), at the function's top level, where its adjoint can be declared as long. A copy
// of a container (`t = x`) is declared as long as x, then x's elements assigned.
void Converter::declareContainer(const VarDecl* vd, ir::StmtList& out) {
  auto type = convertContainer(vd->getType(), false, vd->getSourceRange());
  if (!type) return;
  ir::Type t = localContainer(*type);
  ir::ExprPtr local = ir::var(localName(vd), t);
  auto d = ir::at(ir::decl(local->text, t, nullptr), loc(vd->getBeginLoc()));
  const Expr* init = vd->getInit() ? vd->getInit()->IgnoreImplicit() : nullptr;
  const auto* construct = dyn_cast_or_null<CXXConstructExpr>(init);
  std::vector<const Expr*> args = construct ? explicitArgs(construct) : std::vector<const Expr*>{};
  if (args.size() == 1 && standardContainer(args[0]->getType())) {
    if (!vectorAtTopLevel(vd, t)) return;
    ir::ExprPtr source = convertExpr(args[0]);
    if (t.isContainer()) d->args = {lengthOf(source)};
    out.push_back(d);
    ir::ExprPtr k = ir::var(freshName("k"), sizeType());
    out.push_back(ir::at(
        countedLoop(k->text, lengthOf(local), {ir::assign(ir::index(local, k), ir::Op::Assign, ir::index(source, k))}),
        d->loc));
  } else if (t.isContainer() && ((construct && args.empty()) || isEmptyList(init))) {
    // std::vector<double> v; (or v{}): empty, grown by push_back.
    if (!vectorAtTopLevel(vd, t)) return;
    out.push_back(d);
  } else if (t.arraySize > 0) {
    if (initializeArray(init, *d)) out.push_back(d);
  } else if ((args.size() == 1 || args.size() == 2) && args[0]->getType()->isIntegerType()) {
    if (!vectorAtTopLevel(vd, t)) return;
    d->args = {convertExpr(args[0])};
    out.push_back(d);
    ir::ExprPtr fill = args.size() == 2 ? convertExpr(args[1]) : nullptr;
    if (fill && !ir::isZero(fill)) {  // (the vector is zeroed already)
      ir::ExprPtr k = ir::var(freshName("k"), sizeType());
      out.push_back(ir::at(
          countedLoop(k->text, lengthOf(local), {ir::assign(ir::index(local, k), ir::Op::Assign, fill)}), d->loc));
    }
  } else {
    fail(vd->getSourceRange(), "this " + t.container + " local is not supported",
         "declare it with its size, std::vector<double> " + local->text + "(n) or " + local->text +
             "(n, value), or as a copy of another container, and assign its elements");
  }
}

// std::array<double, 3> a = {1, 2, 3} (or {{1, 2, 3}}, {}): the array's values, zeros after the
// last given. False after reporting another initializer.
bool Converter::initializeArray(const Expr* init, ir::Stmt& array) {
  const auto* list = dyn_cast_or_null<InitListExpr>(init);
  if (list && list->getNumInits() == 1 && isa<InitListExpr>(list->getInit(0)->IgnoreImplicit()))
    list = cast<InitListExpr>(list->getInit(0)->IgnoreImplicit());
  if (init && !list) {
    fail(init->getSourceRange(), "this std::array initializer is not supported",
         "use a braced list of values, or a copy of another container");
    return false;
  }
  if (list)
    for (const Expr* e : list->inits())
      if (!isa<ImplicitValueInitExpr>(e)) array.args.push_back(convertExpr(e));
  while (!array.args.empty() && static_cast<int>(array.args.size()) < array.type.arraySize)
    array.args.push_back(ir::number(0, array.type.element()));
  return true;
}

// A std::vector local's adjoint is declared where the reverse sweep starts, as long as the vector:
// the vector must be declared at the function's top level (else reported, false).
bool Converter::vectorAtTopLevel(const VarDecl* vd, const ir::Type& local) {
  if (nesting_ <= 1 || !local.isContainer()) return true;
  fail(vd->getSourceRange(), "a std::vector declared inside a loop or branch is not supported",
       "declare it at the start of the function, sized for every use");
  return false;
}

// v.push_back(e), v.emplace_back(e), v.emplace_back(), v.reserve(n), v.pop_back(), v.clear() and
// v.resize(n[, value]) on a local std::vector.
bool Converter::isResizing(const CallExpr* call) const {
  const auto* m = dyn_cast_or_null<CXXMemberCallExpr>(call);
  if (!m || !standardContainer(m->getImplicitObjectArgument()->getType())) return false;
  std::string name = m->getMethodDecl()->getNameAsString();
  return name == "push_back" || name == "emplace_back" || name == "reserve" || name == "pop_back" || name == "clear" ||
         name == "resize";
}

namespace {

// v.pop_back() is `v[v.size() - 1] = 0; v.pop_back();`: the element's value is overwritten before
// it goes, an overwrite the reverse sweep undoes as any other (restoring the value dropped) once it
// has grown v back.
ir::StmtList dropLast(const ir::ExprPtr& vector, ir::SourceLoc at) {
  return {ir::at(ir::assign(lastOf(vector), ir::Op::Assign, ir::number(0, vector->type.element())), at),
          ir::at(ir::eval(ir::dropLastElement(vector)), at)};
}

// v grows by one element of `value` (null: a zero): `v.emplace_back(); v[v.size() - 1] = value;`.
void appendValue(const ir::ExprPtr& vector, const ir::ExprPtr& value, ir::SourceLoc at, ir::StmtList& out) {
  out.push_back(ir::at(ir::eval(ir::appendElement(vector)), at));
  if (!value || ir::isZero(value)) return;
  ir::StmtPtr set = ir::assign(lastOf(vector), ir::Op::Assign, value);
  set->firstWrite = true;
  out.push_back(ir::at(set, at));
}

}  // namespace

// v.push_back(e) is `v.emplace_back(); v[v.size() - 1] = e;`: the element grows as a zero the
// assignment then sets, so that its derivative is an assignment's, and the reverse sweep undoes the
// growth (v.pop_back()) where the forward did it, which keeps v.size() in the reverse what it was at
// each statement of the forward. A value that reads v itself is taken before v grows. v.pop_back()
// is the other way round (dropLast); v.clear() and v.resize(n, value) are loops of the two.
void Converter::lowerResizing(const CXXMemberCallExpr* call, ir::StmtList& out) {
  ir::ExprPtr vector = convertExpr(call->getImplicitObjectArgument());
  std::string name = call->getMethodDecl()->getNameAsString();
  if (vector->kind != ir::ExprKind::Var || vector->type.pointer) {
    fail(call->getSourceRange(), "'" + name + "' on a std::vector that is not a local variable is not supported",
         "resize a local std::vector and copy it into the caller's, or size the caller's before the call");
    return;
  }
  ir::SourceLoc at = loc(call->getBeginLoc());
  if (name == "reserve") {
    out.push_back(ir::at(ir::eval(ir::reserve(vector, convertExpr(call->getArg(0)))), at));
    return;
  }
  ir::ExprPtr size = lengthOf(vector);
  if (name == "pop_back") {
    ir::StmtList drop = dropLast(vector, at);
    out.insert(out.end(), drop.begin(), drop.end());
    return;
  }
  if (name == "clear") {
    out.push_back(
        ir::at(ir::whileStmt(ir::binary(ir::Op::Gt, size, ir::number(0, sizeType())), dropLast(vector, at)), at));
    return;
  }
  bool resize = name == "resize";
  if (call->getNumArgs() > (resize ? 2u : 1u)) {
    fail(call->getSourceRange(), "'" + name + "' with more than one argument is not supported",
         "push the element's value: v.push_back(x)");
    return;
  }
  auto intoLocal = [&](const ir::ExprPtr& value, const std::string& base) {
    std::string local = freshName(base);
    out.push_back(ir::at(ir::decl(local, value->type, value), at));
    return ir::var(local, value->type);
  };
  unsigned valueArg = resize ? 1 : 0;
  ir::ExprPtr value = call->getNumArgs() > valueArg ? convertExpr(call->getArg(valueArg)) : nullptr;
  if (value && ir::reads(value, vector->text)) value = intoLocal(value, "pushed");  // taken before v changes
  if (!resize) {
    appendValue(vector, value, at, out);
    return;
  }
  // v.resize(n, value): elements past n dropped, then copies of value (or zeros) up to n.
  ir::ExprPtr target = ir::cast(sizeType(), convertExpr(call->getArg(0)));
  if (target->kind != ir::ExprKind::Number && target->kind != ir::ExprKind::Var)
    target = intoLocal(target, "new_size");  // evaluated once
  ir::StmtList grow;
  appendValue(vector, value, at, grow);
  out.push_back(ir::at(ir::whileStmt(ir::binary(ir::Op::Gt, size, target), dropLast(vector, at)), at));
  out.push_back(ir::at(ir::whileStmt(ir::binary(ir::Op::Lt, size, target), grow), at));
}

// A container parameter passed by value is read only in the derivatives, which take it by const
// reference: a write into it is reported (true).
bool Converter::writesReadOnlyContainer(const ir::ExprPtr& target, const Expr* write) {
  if (target->kind != ir::ExprKind::Index) return false;
  const ir::Expr& values = *target->operands[0];
  if (!values.type.isContainer() || !values.type.constPointee) return false;
  fail(write->getSourceRange(),
       "writes into '" + values.text + "', a " + values.type.container + " passed by value, which is not supported",
       "pass it by reference to change the caller's, or copy it into a local " + values.type.container);
  return true;
}

// for (double v : x) body  is  for (std::size_t k = 0; k < x.size(); ++k) { double v = x[k]; body }
// (an array's bound is its length: a local array, or a constant table); a reference `double& v`
// is x[k] itself wherever the body names it.
void Converter::convertRangeFor(const CXXForRangeStmt* loop, ir::StmtList& out) {
  const Expr* range = loop->getRangeInit()->IgnoreParenImpCasts();
  const auto* ref = dyn_cast<DeclRefExpr>(range);
  if (!ref || (!ctx_.getAsConstantArrayType(range->getType()) && !standardContainer(range->getType()))) {
    fail(range->getSourceRange(), "a range-based for over this range is not supported",
         "loop over a std::vector, a std::array or an array variable, or count with an index");
    return;
  }
  ir::ExprPtr values = convertExpr(range);
  ir::ExprPtr counter = ir::var(freshName("k"), sizeType());
  const VarDecl* v = loop->getLoopVariable();
  ir::StmtList body;
  if (v->getType()->isReferenceType()) {
    elementAliases_[v] = ir::index(values, counter);
  } else if (auto t = convertType(v->getType(), v->getSourceRange())) {
    body.push_back(ir::at(ir::decl(localName(v), *t, ir::index(values, counter)), loc(v->getBeginLoc())));
  }
  ir::StmtList rest = convertBody(loop->getBody());
  body.insert(body.end(), rest.begin(), rest.end());
  out.push_back(ir::at(countedLoop(counter->text, lengthOf(values), body), loc(loop->getBeginLoc())));
}

}  // namespace adjoint::frontend::detail
