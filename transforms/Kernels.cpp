#include <algorithm>
#include <map>
#include <set>

#include "ad/ir/Names.h"
#include "transforms/Passes.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

// The pointer parameters `f` writes and never reads.
std::set<std::string> writeOnlyArrays(const Function& f) {
  std::set<std::string> read, written;
  auto collectReads = [&](const ExprPtr& e) {
    walk(e, [&](const Expr& x) {
      if (x.kind == ExprKind::Var) read.insert(x.text);
    });
  };
  walk(f.body, [&](const Stmt& s) {
    collectReads(s.expr);
    for (const ExprPtr& a : s.args) collectReads(a);
    if (s.kind != StmtKind::Assign) return;
    written.insert(rootName(*s.lhs));
    if (s.op != "=" && !s.atomic) read.insert(rootName(*s.lhs));  // x[i] *= 2 reads x[i]
    for (const Expr* e = s.lhs.get(); e->kind == ExprKind::Index; e = e->operands[0].get()) collectReads(e->operands[1]);
  });
  std::set<std::string> out;
  for (const Param& p : f.params)
    if (p.type.pointer && written.count(p.name) && !read.count(p.name)) out.insert(p.name);
  return out;
}

void dropStores(StmtList& body, const std::set<std::string>& arrays) {
  body.erase(std::remove_if(body.begin(), body.end(),
                            [&](const StmtPtr& s) { return s->kind == StmtKind::Assign && arrays.count(rootName(*s->lhs)); }),
             body.end());
  for (const StmtPtr& s : body) {
    dropStores(s->body, arrays);
    dropStores(s->elseBody, arrays);
  }
}

}  // namespace

void dropOutputStores(Function& d, const Function& primal) {
  std::set<std::string> outputs = writeOnlyArrays(primal);
  if (!outputs.empty()) dropStores(d.body, outputs);
}

bool runBlocksInTurn(Function& d) {
  bool eligible = true, usesBlock = false;
  walk(d.body, [&](const Stmt& s) { eligible &= !(s.kind == StmtKind::Decl && s.type.shared); });
  walkExprs(d.body, [&](const Expr& e) {
    if (isBarrier(e)) eligible = false;
    if (e.kind == ExprKind::Var && (e.text == "blockIdx.y" || e.text == "blockIdx.z" || e.text == "gridDim.y" || e.text == "gridDim.z"))
      eligible = false;
    usesBlock |= e.kind == ExprKind::Var && e.text == "blockIdx.x";
  });
  if (!eligible || !usesBlock) return false;
  Type u = Type::integer("unsigned int", true);
  ExprPtr block = var("virtual_block", u), blocks = var("virtual_blocks", u);
  // The sums' declarations (first) and their finish (last: one sum per slot, then the last
  // block's additions) stay outside the loop, and so do the `static_cast<void>(p);` of unused
  // parameters after the declarations.
  auto first = std::find_if(d.body.begin() + d.blockSumSlots, d.body.end(), [](const StmtPtr& s) {
    return !(s->kind == StmtKind::Eval && s->expr->kind == ExprKind::Call && s->expr->text == "static_cast<void>");
  });
  auto last = d.body.end() - (d.blockSumSlots + 1);
  StmtList perBlock(first, last);
  substitute(perBlock, std::map<std::string, ExprPtr>{{"blockIdx.x", block}, {"gridDim.x", blocks}});
  StmtPtr loop = forStmt(decl(block->text, u, var("blockIdx.x", u)), binary("<", block, blocks),
                         assign(block, "+=", var("gridDim.x", u)), perBlock);
  loop->comment = "the blocks of the forward's launch (virtual_blocks of them), each block running several in turn:\n"
                  "fewer, longer-lived blocks keep more loads in flight and leave fewer sums to add";
  StmtList body(d.body.begin(), first);
  body.push_back(loop);
  body.insert(body.end(), last, d.body.end());
  d.body = body;
  d.params.push_back(Param{"virtual_blocks", u});
  return true;
}

}  // namespace adjoint::transforms
