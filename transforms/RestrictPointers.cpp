#include "transforms/RestrictPointers.h"

namespace adjoint::transforms {

using namespace ir;

namespace {

// `e` without the casts and the integer offsets around a pointer: x for (const float4*)(x + k).
const Expr& pointerBase(const Expr& e) {
  if (e.kind == ExprKind::Cast) return pointerBase(*e.operands[0]);
  if (e.kind == ExprKind::Binary && (e.op == Op::Add || e.op == Op::Sub)) {
    // (The IR types pointer arithmetic by its element: the pointer is the operand that is one.)
    const Expr& base = pointerBase(*e.operands[0]);
    if (base.type.pointer) return base;
  }
  return e;
}

bool isVar(const Expr& e, const std::string& name) { return e.kind == ExprKind::Var && e.text == name; }

// Whether `e` uses `pointer` other than to load through it (x[i], *(x + k), x != nullptr): as a
// value that may reach a store (passed to a call, its element's address taken, kept elsewhere).
// The offsets added to a pointer are integers: loads at most.
bool usesBesidesLoads(const Expr& e, const std::string& pointer) {
  if (isVar(e, pointer) || (e.kind == ExprKind::Unary && e.op == Op::AddressOf && reads(e.operands[0], pointer)))
    return true;
  bool load = e.kind == ExprKind::Index || (e.kind == ExprKind::Unary && e.op == Op::Deref);
  bool compare = e.kind == ExprKind::Binary && isComparison(e.op);
  for (size_t k = 0; k < e.operands.size(); ++k) {
    bool throughPointer = (load && k == 0) || compare;
    if (!(throughPointer && isVar(pointerBase(*e.operands[k]), pointer)) && usesBesidesLoads(*e.operands[k], pointer))
      return true;
  }
  return false;
}

// The variable an lvalue stores into: x for x[i], (x + k)[i], *x.
const Expr& storedInto(const Expr& lvalue) {
  const Expr* e = &lvalue;
  while (e->kind == ExprKind::Index || e->kind == ExprKind::Member ||
         (e->kind == ExprKind::Unary && e->op == Op::Deref))
    e = e->operands[0].get();
  return pointerBase(*e);
}

bool onlyReadThrough(const StmtList& body, const std::string& pointer);

// Whether statement `s` keeps to loads through `pointer`: besides loads, it may move the pointer
// along its buffer (p += k) or make a local pointer from it that keeps to loads in turn.
bool keepsToLoads(const StmtList& body, const Stmt& s, const std::string& pointer) {
  bool madeFrom = s.expr && isVar(pointerBase(*s.expr), pointer);
  if (s.kind == StmtKind::Decl && s.type.pointer && madeFrom) return onlyReadThrough(body, s.name);
  if (s.kind == StmtKind::Assign && isVar(*s.lhs, pointer))  // p += k, p = p + k
    return s.op == Op::Assign ? madeFrom : !usesBesidesLoads(*s.expr, pointer);
  if (s.kind == StmtKind::Assign && s.lhs->kind == ExprKind::Var && s.lhs->type.pointer && madeFrom)
    return onlyReadThrough(body, s.lhs->text);
  if (s.kind == StmtKind::Assign && s.lhs->kind != ExprKind::Var && isVar(storedInto(*s.lhs), pointer)) return false;
  bool ok = true;
  for (const ExprPtr& e : {s.lhs, s.expr}) ok = ok && !(e && usesBesidesLoads(*e, pointer));
  for (const ExprPtr& e : s.args) ok = ok && !usesBesidesLoads(*e, pointer);
  return ok;
}

bool onlyReadThrough(const StmtList& body, const std::string& pointer) {
  bool ok = true;
  walk(body, [&](const Stmt& s) { ok = ok && keepsToLoads(body, s, pointer); });
  return ok;
}

}  // namespace

void restrictReadOnlyPointers(Function& kernel) {
  std::vector<Param*> buffers;
  for (Param& p : kernel.params)
    if (p.role == Role::Primal && p.type.pointer) buffers.push_back(&p);
  // A kernel that writes one of the forward's buffers (a train step's forward and reverse in one
  // kernel) marks none: the caller may pass the buffer it writes for one it reads as well.
  for (const Param* p : buffers)
    if (!p->type.rowExtents.empty() || p->type.isContainer() || !onlyReadThrough(kernel.body, p->name)) return;
  for (Param* p : buffers) p->restrictPointer = !p->unused;
}

}  // namespace adjoint::transforms
