#include "transforms/BlockColumnSums.h"

#include "ad/ir/Printer.h"

namespace adjoint::transforms {

using namespace ir;

StmtPtr blockStrideLoop(const std::string& name, const Type& t, const ExprPtr& bound,
                        const std::function<StmtList(const ExprPtr&)>& body) {
  Type u = Type::integer("unsigned", true);
  auto as = [&](ExprPtr e) { return t == u ? e : cast(t, e); };
  ExprPtr j = var(name, t);
  return forStmt(decl(name, t, as(call("adjoint::thread_rank", {}, u))), binary(Op::Lt, j, bound),
                 assign(j, Op::Add, as(call("adjoint::block_threads", {}, u))), body(j));
}

bool BlockColumnSums::take(const std::string& bar, const ExprPtr& width) {
  Type element = d_.param(bar)->type.element();
  if (width_ && (!(element == element_) || !sameExpr(*width_, *width))) return false;
  width_ = width;
  element_ = element;
  arrays_.push_back({bar, names_.fresh(bar + "_block")});
  return true;
}

ExprPtr BlockColumnSums::at(const std::string& bar, const ExprPtr& column) const {
  for (const Array& a : arrays_)
    if (a.bar == bar) return index(var(a.block, blockType()), column);
  return nullptr;
}

Type BlockColumnSums::blockType() const {
  Type t = element_.pointerTo(false);
  t.shared = true;
  return t;
}

ExprPtr BlockColumnSums::inBlock() const { return var(inBlock_, Type::of(Scalar::Bool)); }

StmtPtr BlockColumnSums::overColumns(const std::function<StmtList(const ExprPtr&)>& body) {
  return blockStrideLoop(names_.fresh("column"), width_->type, width_, body);
}

StmtList BlockColumnSums::start() {
  if (arrays_.empty()) return {};
  Type u = Type::integer("unsigned", true);
  inBlock_ = names_.fresh("columns_in_block");
  Type flag = Type::of(Scalar::Bool);
  flag.constant = true;
  StmtList out{decl(inBlock_, flag, binary(Op::Ne, call("adjoint::dynamic_shared_bytes", {}, u), number(0, u)))};
  out.front()->comment = "adjoints added at columns below " + print(*width_) +
                         ": each block sums them in shared memory first, cleared\nbefore any thread adds to "
                         "them (where they do not fit there, the launcher gives no\nshared memory and they are "
                         "added where they belong)";
  auto parts = static_cast<unsigned>(arrays_.size());
  for (size_t k = 0; k < arrays_.size(); ++k) {
    const Array& a = arrays_[k];
    ExprPtr shared = call("adjoint::dynamic_shared<" + element_.scalarSpelling() + ">",
                          {number(static_cast<double>(k), u), number(parts, u)}, blockType());
    out.push_back(decl(a.block, blockType(), select(inBlock(), shared, var(a.bar, d_.param(a.bar)->type))));
  }
  StmtPtr clear = overColumns([&](const ExprPtr& j) {
    StmtList zeros;
    for (const Array& a : arrays_)
      zeros.push_back(assign(index(var(a.block, blockType()), j), Op::Assign, number(0, element_)));
    return zeros;
  });
  out.push_back(ifStmt(inBlock(), {clear, eval(call("__syncthreads", {}, Type::of(Scalar::Void)))}));
  d_.blockColumnWidth = width_;
  d_.blockColumnArrays = parts;
  d_.blockColumnElement = element_;
  return out;
}

StmtList BlockColumnSums::finish() {
  if (arrays_.empty()) return {};
  StmtPtr add = overColumns([&](const ExprPtr& j) {
    StmtList adds;
    for (const Array& a : arrays_) {
      ExprPtr sum = index(var(a.block, blockType()), j);
      StmtPtr once = assign(index(var(a.bar, d_.param(a.bar)->type), j), Op::Add, sum);
      once->atomic = true;
      adds.push_back(ifStmt(binary(Op::Ne, sum, number(0, element_)), {once}));
    }
    return adds;
  });
  StmtPtr finish = ifStmt(inBlock(), {eval(call("__syncthreads", {}, Type::of(Scalar::Void))), add});
  finish->comment = "the block's column sums, added once per column";
  return {finish};
}

}  // namespace adjoint::transforms
