#include "transforms/BlocksInTurn.h"

#include <algorithm>
#include <map>

#include "ad/ir/Names.h"
#include "ad/ir/Naming.h"

namespace adjoint::transforms {

using namespace ir;

bool runBlocksInTurn(Function& d) {
  bool eligible = true, usesBlock = false;
  // The sums' declarations (first) and their finish (last) stay outside the loop: block column
  // sums in shared memory, and their barriers, are the blocks' for all the blocks they run.
  auto first = d.body.begin() + d.sumsBefore;
  auto last = d.body.end() - d.sumsAfter;
  StmtList perBlock(first, last);
  walk(perBlock, [&](const Stmt& s) { eligible &= !(s.kind == StmtKind::Decl && s.type.shared); });
  walkExprs(perBlock, [&](const Expr& e) {
    // (A warp's barrier stays among the warp's threads, which run the same blocks in turn.)
    if (isBarrier(e) && e.text != "__syncwarp") eligible = false;
    if (e.kind == ExprKind::Var &&
        (e.text == "blockIdx.y" || e.text == "blockIdx.z" || e.text == "gridDim.y" || e.text == "gridDim.z"))
      eligible = false;
    usesBlock |= e.kind == ExprKind::Var && e.text == "blockIdx.x";
  });
  if (!eligible || !usesBlock) return false;
  Type u = Type::integer("unsigned int", true);
  ExprPtr block = var(naming::kVirtualBlock, u), blocks = var(naming::kVirtualBlocks, u);
  substitute(perBlock, std::map<std::string, ExprPtr>{{"blockIdx.x", block}, {"gridDim.x", blocks}});
  StmtPtr loop = forStmt(decl(block->text, u, var("blockIdx.x", u)), binary(Op::Lt, block, blocks),
                         assign(block, Op::Add, var("gridDim.x", u)), perBlock);
  loop->comment =
      "the blocks of the forward's launch (virtual_blocks of them), each block running several\n"
      "in turn: fewer, longer-lived blocks keep more loads in flight and leave fewer sums to add";
  StmtList body(d.body.begin(), first);
  body.push_back(loop);
  body.insert(body.end(), last, d.body.end());
  d.body = body;
  d.params.push_back(Param{naming::kVirtualBlocks, u, Role::VirtualBlocks});
  return true;
}

}  // namespace adjoint::transforms
