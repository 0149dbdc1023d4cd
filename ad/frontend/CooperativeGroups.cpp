// Cooperative groups (<cooperative_groups.h>) as the CUDA built-ins they stand for: a block
// (cg::this_thread_block()) and its tiles of 32 threads (cg::tiled_partition<32>(block)) are no
// values of the IR. A group's rank and size are threadIdx.x and blockDim.x arithmetic, its
// sync() a barrier, its shuffles __shfl_*_sync of the full warp, and cg::reduce the butterfly
// of __shfl_xor_sync that a warp reduction is written as by hand (and that the header itself
// compiles to for floating values): the derivatives of all of those exist already.
//
// The block's threads are taken to differ in threadIdx.x alone (a tile's rank is threadIdx.x %
// 32): a function that uses groups is marked so, and the launchers of its derivatives refuse
// other blocks.
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

namespace {

constexpr int kWarp = 32;

bool inCooperativeGroups(const Decl* d) {
  for (const DeclContext* dc = d->getDeclContext(); dc; dc = dc->getParent())
    if (const auto* ns = dyn_cast<NamespaceDecl>(dc); ns && ns->getName() == "cooperative_groups") return true;
  return false;
}

// The group of a group type: 0 for a block, a tile's size, nothing for any other type.
std::optional<int> groupOfType(QualType qt) {
  const auto* record = qt->getAsCXXRecordDecl();
  if (!record || !inCooperativeGroups(record)) return std::nullopt;
  if (record->getName() == "thread_block") return 0;
  const auto* tile = dyn_cast<ClassTemplateSpecializationDecl>(record);
  if (tile && record->getName() == "thread_block_tile" && tile->getTemplateArgs().size() > 0 &&
      tile->getTemplateArgs()[0].getKind() == TemplateArgument::Integral)
    return static_cast<int>(tile->getTemplateArgs()[0].getAsIntegral().getExtValue());
  return -1;  // another group (grid_group, coalesced_group, thread_group): not supported
}

ir::Type unsignedInt() { return ir::Type::integer("unsigned int", true); }
ir::ExprPtr builtin(const std::string& name) { return ir::var(name, unsignedInt()); }
ir::ExprPtr count(int n) { return ir::number(n, unsignedInt()); }

// A group without the copies and conversions around it (a tile of a block converts to the
// tile type of no parent).
const Expr* strippedGroup(const Expr* e) {
  e = e->IgnoreImplicit();
  while (true) {
    if (const auto* c = dyn_cast<CXXConstructExpr>(e); c && c->getNumArgs() == 1)
      e = c->getArg(0)->IgnoreImplicit();
    else if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e))
      e = m->getSubExpr()->IgnoreImplicit();
    else if (const auto* m = dyn_cast<CXXMemberCallExpr>(e); m && isa<CXXConversionDecl>(m->getMethodDecl()))
      e = m->getImplicitObjectArgument()->IgnoreImplicit();
    else
      return e;
  }
}

// The object of a call of a group's member function (tile.thread_rank() calls a static member).
const Expr* memberObject(const CallExpr* call) {
  if (const auto* m = dyn_cast<CXXMemberCallExpr>(call)) return m->getImplicitObjectArgument();
  const auto* me = dyn_cast<MemberExpr>(call->getCallee()->IgnoreParenImpCasts());
  return me ? me->getBase() : nullptr;
}

}  // namespace

bool Converter::isGroupType(QualType qt) const { return groupOfType(qt.getNonReferenceType()).has_value(); }

// The group an expression names: a local group, cg::this_thread_block(), or
// cg::tiled_partition<32>(block).
std::optional<int> Converter::groupOf(const Expr* e) {
  e = strippedGroup(e);
  if (const auto* ref = dyn_cast<DeclRefExpr>(e))
    if (auto g = groups_.find(dyn_cast<VarDecl>(ref->getDecl())); g != groups_.end()) return g->second;
  const auto* call = dyn_cast<CallExpr>(e);
  const FunctionDecl* fd = call ? call->getDirectCallee() : nullptr;
  if (!fd || !inCooperativeGroups(fd)) return std::nullopt;
  if (fd->getName() == "this_thread_block" && call->getNumArgs() == 0) return 0;
  std::optional<int> size = groupOfType(call->getType());
  if (fd->getName() == "tiled_partition" && call->getNumArgs() == 1 && size && *size > 0 &&
      groupOf(call->getArg(0)) == 0)
    return size;
  return std::nullopt;
}

// cg::thread_block block = cg::this_thread_block(); cg::thread_block_tile<32> warp =
// cg::tiled_partition<32>(block): the group is remembered, nothing is declared.
void Converter::declareGroup(const VarDecl* vd) {
  int size = groupOfType(vd->getType()).value_or(-1);
  if (size != 0 && size != kWarp) {
    fail(vd->getSourceRange(), "this cooperative group is not supported",
         "use the block (cg::this_thread_block()) and its tiles of 32 threads (cg::tiled_partition<32>(block))");
    return;
  }
  if (!vd->getInit() || groupOf(vd->getInit()) != size) {
    fail(vd->getSourceRange(), "this cooperative group's initializer is not supported",
         "initialize a group with cg::this_thread_block() or cg::tiled_partition<32>(block)");
    return;
  }
  groups_[vd] = size;
}

// __shfl_<kind>_sync(0xffffffffu, value, lane): the built-in with its (linear) rule.
ir::ExprPtr Converter::warpShuffle(const std::string& kind, ir::ExprPtr value, ir::ExprPtr lane) {
  std::string name = "__shfl" + kind + "_sync";
  module_.rules[name] = rules_.at(name);
  ir::Type type = value->type;
  ir::ExprPtr full = ir::integerLiteral(4294967295.0, unsignedInt(), "0xffffffffu");
  return ir::call(name, {full, std::move(value), std::move(lane)}, type);
}

// group.method(args): what the method computes, in the built-ins.
ir::ExprPtr Converter::convertGroupCall(const CallExpr* call, int group) {
  usesGroups_ = true;
  std::string method = call->getDirectCallee()->getNameAsString();
  auto type = convertType(call->getType(), call->getSourceRange(), /*allowVoid=*/true);
  if (!type) return placeholder();
  auto typed = [&](const ir::ExprPtr& e) { return ir::cast(*type, e); };
  bool tile = group > 0;
  if (method == "thread_rank")
    return typed(tile ? ir::binary(ir::Op::Rem, builtin("threadIdx.x"), count(kWarp)) : builtin("threadIdx.x"));
  if (method == "size" || method == "num_threads") return typed(tile ? count(kWarp) : builtin("blockDim.x"));
  if (method == "sync") return ir::call(tile ? "__syncwarp" : "__syncthreads", {}, *type);
  if (tile && method == "meta_group_rank") return typed(ir::div(builtin("threadIdx.x"), count(kWarp)));
  if (tile && method == "meta_group_size")  // the tiles of a block, the last one maybe partial
    return typed(ir::div(ir::add(builtin("blockDim.x"), count(kWarp - 1)), count(kWarp)));
  static const std::map<std::string, std::string> shuffles = {
      {"shfl", ""}, {"shfl_xor", "_xor"}, {"shfl_down", "_down"}, {"shfl_up", "_up"}};
  if (auto s = shuffles.find(method); tile && s != shuffles.end() && call->getNumArgs() == 2)
    return warpShuffle(s->second, convertExpr(call->getArg(0)), convertExpr(call->getArg(1)));
  return unsupportedExpr(call, "'" + method + "' of a cooperative group is not supported",
                         "a tile has thread_rank, size, meta_group_rank, meta_group_size, sync and shfl, shfl_xor, "
                         "shfl_down, shfl_up; a block thread_rank, size and sync");
}

bool Converter::isGroupFunction(const FunctionDecl* fd) const { return fd && inCooperativeGroups(fd); }

// group.method(...), cg::sync(group), and cg::reduce(tile, value, op) into a local of its own.
ir::ExprPtr Converter::convertGroupFunction(const CallExpr* call) {
  const FunctionDecl* fd = call->getDirectCallee();
  if (const Expr* object = memberObject(call)) {
    if (std::optional<int> group = groupOf(object)) return convertGroupCall(call, *group);
    return unsupportedExpr(call, "this cooperative group is not supported",
                           "use the block (cg::this_thread_block()) and its tiles of 32 threads");
  }
  std::optional<int> group = call->getNumArgs() > 0 ? groupOf(call->getArg(0)) : std::nullopt;
  usesGroups_ = true;
  if (fd->getName() == "sync" && group && call->getNumArgs() == 1)
    return ir::call(*group > 0 ? "__syncwarp" : "__syncthreads", {}, ir::Type::of(ir::Scalar::Void));
  if (fd->getName() == "reduce") {
    if (!prelude_) return needsNoStatements(call, "cg::reduce");
    auto type = convertType(call->getType(), call->getSourceRange());
    if (!type) return placeholder();
    ir::ExprPtr into = ir::var(freshName("reduced"), *type);
    if (!lowerReduce(call, into, /*declare=*/true, *prelude_)) return placeholder();
    return into;
  }
  return unsupportedExpr(call, "'" + fd->getQualifiedNameAsString() + "' is not supported",
                         "of cooperative groups Adjoint takes this_thread_block, tiled_partition<32>, sync and reduce");
}

const CallExpr* Converter::groupReduce(const Expr* e, QualType into) const {
  const auto* call = e ? dyn_cast<CallExpr>(e->IgnoreImplicit()) : nullptr;
  const FunctionDecl* fd = call ? call->getDirectCallee() : nullptr;
  bool same = call && ctx_.hasSameUnqualifiedType(call->getType(), into);
  return same && isGroupFunction(fd) && fd->getName() == "reduce" ? call : nullptr;
}

// cg::reduce(tile, value, op) into the variable `into` (declared first when `declare`). A sum is
// the butterfly
//   into = value;
//   for (int offset = 16; offset > 0; offset /= 2) into += __shfl_xor_sync(0xffffffffu, into, offset);
// after which every lane holds the tile's sum, as cg::reduce leaves it. A maximum (cg::greater)
// or minimum (cg::less) is read from the first lane that holds it,
//   int into_lane = adjoint::warp_argmax(value);
//   into = __shfl_sync(0xffffffffu, value, into_lane);
// so that its derivative is that lane's alone and the reverse needs no value of a butterfly's
// steps. False after reporting an error.
bool Converter::lowerReduce(const CallExpr* call, const ir::ExprPtr& into, bool declare, ir::StmtList& out) {
  usesGroups_ = true;
  const auto* op = call->getNumArgs() == 3 ? call->getArg(2)->getType()->getAsCXXRecordDecl() : nullptr;
  std::string name = op && inCooperativeGroups(op) ? op->getNameAsString() : "";
  bool floating = call->getType()->isFloatingType();
  if (groupOf(call->getArg(0)) != kWarp || !(name == "plus" || (floating && (name == "greater" || name == "less")))) {
    fail(call->getSourceRange(), "this cg::reduce is not supported",
         "reduce over a tile of 32 threads with cg::plus, or for floating values cg::greater or cg::less");
    return false;
  }
  ir::SourceLoc at = loc(call->getBeginLoc());
  ir::ExprPtr value = ir::cast(into->type, convertExpr(call->getArg(1)));
  auto set = [&](ir::ExprPtr v) {
    out.push_back(ir::at(declare ? ir::decl(into->text, into->type, v) : ir::assign(into, ir::Op::Assign, v), at));
  };
  ir::Type integer = ir::Type::integer();
  if (name != "plus") {
    if (value->kind != ir::ExprKind::Var) {
      std::string copy = freshName(into->text + "_value");
      out.push_back(ir::at(ir::decl(copy, into->type, value), at));
      value = ir::var(copy, into->type);
    }
    ir::ExprPtr lane = ir::var(freshName(into->text + "_lane"), integer);
    std::string first = name == "greater" ? "adjoint::warp_argmax" : "adjoint::warp_argmin";
    out.push_back(ir::at(ir::decl(lane->text, integer, ir::call(first, {value}, integer)), at));
    set(warpShuffle("", value, lane));
    return true;
  }
  if (declare || value->kind != ir::ExprKind::Var || value->text != into->text) set(value);
  ir::ExprPtr offset = ir::var(freshName("offset"), integer);
  ir::StmtPtr step = ir::at(ir::assign(into, ir::Op::Add, warpShuffle("_xor", into, offset)), at);
  out.push_back(ir::at(ir::forStmt(ir::decl(offset->text, integer, ir::number(kWarp / 2, integer)),
                                   ir::binary(ir::Op::Gt, offset, ir::number(0, integer)),
                                   ir::assign(offset, ir::Op::Div, ir::number(2, integer)), {step}),
                       at));
  return true;
}

}  // namespace adjoint::frontend::detail
