#include "ad/analysis/Extents.h"

#include <map>

#include "ad/analysis/Activity.h"

namespace adjoint::analysis {

namespace {

using namespace ir;

const Type kExtent = Type::integer("long long");

bool isBuiltin(const std::string& name, const char* object) { return name.rfind(object, 0) == 0; }

ExprPtr one() { return number(1, kExtent); }

ExprPtr minimum(const ExprPtr& a, const ExprPtr& b) {
  if (!a) return b;
  if (!b || sameExpr(*a, *b)) return a;
  return call("std::min<long long>", {a, b}, kExtent);
}
ExprPtr maximum(const ExprPtr& a, const ExprPtr& b) {
  if (!a) return b;
  if (!b || sameExpr(*a, *b)) return a;
  return call("std::max<long long>", {a, b}, kExtent);
}

// e + 1, with (x - 1) + 1 written x (also as the last term of a sum, and through min and max).
ExprPtr plusOne(const ExprPtr& e) {
  if (isOp(*e, Op::Sub) && isOne(e->operands[1])) return e->operands[0];
  if (isOp(*e, Op::Add) && isOp(*e->operands[1], Op::Sub) && isOne(e->operands[1]->operands[1]))
    return add(e->operands[0], e->operands[1]->operands[0]);
  if (e->kind == ExprKind::Call && e->operands.size() == 2 && e->text.rfind("std::m", 0) == 0)
    return call(e->text, {plusOne(e->operands[0]), plusOne(e->operands[1])}, kExtent);
  return add(e, one());
}

// Whether e is x * y with {x, y} = {a, b}.
bool isProductOf(const Expr& e, const char* a, const char* b) {
  if (!isOp(e, Op::Mul)) return false;
  const Expr &l = *e.operands[0], &r = *e.operands[1];
  auto is = [](const Expr& v, const char* n) { return v.kind == ExprKind::Var && v.text == n; };
  return (is(l, a) && is(r, b)) || (is(l, b) && is(r, a));
}

// The variables that assignments (not declarations) give values: x = ..., x += ..., ++x.
std::set<std::string> reassigned(const StmtList& body) {
  std::set<std::string> names;
  walk(body, [&](const Stmt& s) {
    if (s.kind == StmtKind::Assign) names.insert(rootName(*s.lhs));
  });
  return names;
}

class ExtentFinder {
 public:
  ExtentFinder(const Function& kernel, const std::string& array)
      : kernel_(kernel), array_(array), assigned_(reassigned(kernel.body)) {}

  AccessExtent run() {
    Bounds bounds;
    visit(kernel_.body, bounds);
    return {failed_ ? nullptr : extent_, unboundedReads_};
  }

 private:
  using Bounds = std::map<std::string, ExprPtr>;  // inclusive upper bounds of integer locals

  const Function& kernel_;
  std::string array_;
  std::set<std::string> assigned_;
  std::set<std::string> declared_;  // locals declared with a value they keep
  ExprPtr extent_;
  bool failed_ = false, unboundedReads_ = false;

  bool isStableParam(const std::string& name) const {
    const Param* p = kernel_.param(name);
    return p && p->type.scalar == Scalar::Int && !p->type.pointer && !assigned_.count(name);
  }

  // An inclusive upper bound of the integer expression e, or null.
  ExprPtr upper(const ExprPtr& e, const Bounds& b) const {
    switch (e->kind) {
      case ExprKind::Number:
        return e;
      case ExprKind::Var: {
        auto it = b.find(e->text);
        if (it != b.end()) return it->second;
        if (isBuiltin(e->text, "threadIdx.")) return sub(var("blockDim." + e->text.substr(10), e->type), one());
        if (isBuiltin(e->text, "blockIdx.")) return sub(var("gridDim." + e->text.substr(9), e->type), one());
        if (isBuiltin(e->text, "blockDim.") || isBuiltin(e->text, "gridDim.") || isStableParam(e->text)) return e;
        return nullptr;
      }
      case ExprKind::Cast:
        return upper(e->operands[0], b);
      case ExprKind::Binary:
        return upperOfBinary(*e, b);
      default:
        return nullptr;
    }
  }

  ExprPtr upperOfBinary(const Expr& e, const Bounds& b) const {
    const ExprPtr &l = e.operands[0], &r = e.operands[1];
    // The global thread index: one below the threads of the grid.
    if (isOp(e, Op::Add) &&
        ((isProductOf(*l, "blockIdx.x", "blockDim.x") && r->kind == ExprKind::Var && r->text == "threadIdx.x") ||
         (isProductOf(*r, "blockIdx.x", "blockDim.x") && l->kind == ExprKind::Var && l->text == "threadIdx.x")))
      return sub(mul(var("gridDim.x", l->type), var("blockDim.x", l->type)), one());
    ExprPtr ul = upper(l, b), ur = upper(r, b);
    switch (e.op) {
      case Op::Add:
        return ul && ur ? add(ul, ur) : nullptr;
      case Op::Mul:  // of non-negative values
        return ul && ur ? mul(ul, ur) : nullptr;
      case Op::Sub:  // the largest minus the smallest: r's own value where it cannot vary
        return ul && isFixed(r) ? sub(ul, r) : nullptr;
      case Op::Div:
        return ul && isFixed(r) ? div(ul, r) : nullptr;
      case Op::Rem:
        return ur ? sub(ur, one()) : nullptr;
      case Op::Shl:
      case Op::Shr:
        return ul && r->kind == ExprKind::Number ? binary(e.op, ul, r) : nullptr;
      default:
        return nullptr;
    }
  }

  // A value every thread sees the same throughout the kernel: literals, integer parameters it
  // never assigns, and the launch's dimensions.
  bool isFixed(const ExprPtr& e) const {
    if (e->kind == ExprKind::Number) return true;
    if (e->kind == ExprKind::Var)
      return isStableParam(e->text) || isBuiltin(e->text, "blockDim.") || isBuiltin(e->text, "gridDim.");
    if (e->kind == ExprKind::Cast) return isFixed(e->operands[0]);
    return false;
  }

  // `bounds` with what `cond` being `holds` tells about the variables it compares.
  Bounds refined(Bounds bounds, const ExprPtr& cond, bool holds) const {
    if (isOp(*cond, Op::Not)) return refined(bounds, cond->operands[0], !holds);
    if ((holds && isOp(*cond, Op::And)) || (!holds && isOp(*cond, Op::Or)))
      return refined(refined(bounds, cond->operands[0], holds), cond->operands[1], holds);
    if (cond->kind != ExprKind::Binary || !isComparison(cond->op)) return bounds;
    // As `v < limit` (strict) or `v <= limit`.
    ExprPtr v = cond->operands[0], limit = cond->operands[1];
    Op op = cond->op;
    if (op == Op::Gt || op == Op::Ge) {
      std::swap(v, limit);
      op = op == Op::Gt ? Op::Lt : Op::Le;
    }
    if (!holds) {  // !(a < b) is b <= a
      if (op != Op::Lt && op != Op::Le) return bounds;
      std::swap(v, limit);
      op = op == Op::Lt ? Op::Le : Op::Lt;
    }
    if (op != Op::Lt && op != Op::Le) return bounds;
    while (v->kind == ExprKind::Cast) v = v->operands[0];
    if (v->kind != ExprKind::Var || !canBound(v->text)) return bounds;
    ExprPtr u = upper(limit, bounds);
    if (!u) return bounds;
    bounds[v->text] =
        minimum(bounds.count(v->text) ? bounds[v->text] : upper(v, bounds), op == Op::Lt ? sub(u, one()) : u);
    return bounds;
  }

  bool canBound(const std::string& name) const { return declared_.count(name) > 0; }

  void access(const ExprPtr& index, const Bounds& bounds, bool write) {
    ExprPtr u = upper(index, bounds);
    if (!u) {
      (write ? failed_ : unboundedReads_) = true;
      return;
    }
    extent_ = maximum(extent_, plusOne(u));
  }

  bool isElement(const Expr& x) const {
    return x.kind == ExprKind::Index && x.operands[0]->kind == ExprKind::Var && x.operands[0]->text == array_;
  }

  // The accesses of e: reads, except e itself when `written` (an assignment's target).
  void accesses(const ExprPtr& e, const Bounds& bounds, bool written = false) {
    if (!e) return;
    if (written && isElement(*e)) {
      access(e->operands[1], bounds, true);
      accesses(e->operands[1], bounds);
      return;
    }
    if (isElement(*e)) access(e->operands[1], bounds, false);
    if (e->kind == ExprKind::Call)
      for (const ExprPtr& a : e->operands)
        if (const ExprPtr& passed = pointerArg(a).array; passed->kind == ExprKind::Var && passed->text == array_)
          failed_ = true;  // passed on: not followed
    // What `?:`, && and || evaluate only where their condition holds (i < n ? x[i] : 0) is bounded
    // by it.
    const std::vector<ExprPtr>& o = e->operands;
    if (e->kind == ExprKind::Select) {
      accesses(o[0], bounds);
      accesses(o[1], refined(bounds, o[0], true));
      accesses(o[2], refined(bounds, o[0], false));
    } else if (isOp(*e, Op::And) || isOp(*e, Op::Or)) {
      accesses(o[0], bounds);
      accesses(o[1], refined(bounds, o[0], isOp(*e, Op::And)));
    } else {
      for (const ExprPtr& operand : o) accesses(operand, bounds);
    }
  }

  void visitOwn(const Stmt& s, const Bounds& bounds) {
    accesses(s.lhs, bounds, true);
    accesses(s.expr, bounds);
    for (const ExprPtr& e : s.args) accesses(e, bounds);
  }

  void visit(const StmtList& body, Bounds bounds) {
    for (const StmtPtr& s : body) {
      switch (s->kind) {
        case StmtKind::Decl:
          visitOwn(*s, bounds);
          declare(*s, bounds);
          break;
        case StmtKind::If:
          accesses(s->expr, bounds);
          visit(s->body, refined(bounds, s->expr, true));
          visit(s->elseBody, refined(bounds, s->expr, false));
          // if (i >= n) return;  bounds i below n for the rest
          if (s->elseBody.empty() && !s->body.empty() && s->body.back()->kind == StmtKind::Return)
            bounds = refined(bounds, s->expr, false);
          break;
        case StmtKind::For:
          visitLoop(*s, bounds);
          break;
        case StmtKind::While:
        case StmtKind::DoWhile:
          accesses(s->expr, bounds);
          visit(s->body, withoutAssigned(bounds, s->body));
          break;
        case StmtKind::Block:
          visit(s->body, bounds);
          break;
        default:
          visitOwn(*s, bounds);
      }
    }
  }

  void declare(const Stmt& s, Bounds& bounds) {
    if (s.type.scalar != Scalar::Int || s.type.isIndexed() || assigned_.count(s.name) || !s.expr) return;
    declared_.insert(s.name);
    if (ExprPtr u = upper(s.expr, bounds)) bounds[s.name] = u;
  }

  // for (int j = a; j < limit; j += step): j stays below limit in the body, when the body does
  // not assign it.
  void visitLoop(const Stmt& loop, Bounds bounds) {
    if (loop.init) visitOwn(*loop.init, bounds);
    bounds = withoutAssigned(bounds, loop.body);
    const Stmt* init = loop.init.get();
    std::set<std::string> inBody = assignedVariables(loop.body);
    bool counted =
        init && init->kind == StmtKind::Decl && init->type.scalar == Scalar::Int && !inBody.count(init->name);
    if (counted) {
      declared_.insert(init->name);
      bounds.erase(init->name);
    }
    accesses(loop.expr, bounds);
    Bounds inside = counted && loop.expr ? refined(bounds, loop.expr, true) : bounds;
    if (counted && !refined(bounds, loop.expr, true).count(init->name)) inside.erase(init->name);
    visit(loop.body, inside);
    if (loop.step) visitOwn(*loop.step, inside);
  }

  Bounds withoutAssigned(Bounds bounds, const StmtList& body) const {
    for (const std::string& name : assignedVariables(body)) bounds.erase(name);
    return bounds;
  }
};

}  // namespace

AccessExtent accessExtent(const Function& kernel, const std::string& array) {
  return ExtentFinder(kernel, array).run();
}

}  // namespace adjoint::analysis
