#include "transforms/ParallelAdjoints.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

#include "ad/analysis/Activity.h"
#include "ad/analysis/MixedRadix.h"
#include "ad/analysis/RunSlots.h"
#include "ad/analysis/ThreadIndex.h"
#include "ad/ir/Diagnostic.h"
#include "ad/ir/Names.h"
#include "ad/ir/Naming.h"
#include "ad/ir/Printer.h"
#include "ad/ir/Rewriter.h"
#include "transforms/BlockColumnSums.h"
#include "transforms/SegmentSums.h"

namespace adjoint::transforms {

namespace {

// Removes the returns that end the function (structure-jumps left every return there): falling
// off the end does the same.
void dropTailReturns(ir::StmtList& body) {
  if (body.empty()) return;
  ir::Stmt& last = *body.back();
  if (last.kind == ir::StmtKind::Return && !last.expr) {
    body.pop_back();
  } else if (last.kind == ir::StmtKind::If) {
    dropTailReturns(last.body);
    dropTailReturns(last.elseBody);
  } else if (last.kind == ir::StmtKind::Block) {
    dropTailReturns(last.body);
  }
}

using namespace ir;
using analysis::Spread;

// The note goes first: a long comment naming the forward line may wrap, and the formatter would
// join a note after it into its last line.
std::string withNote(const std::string& comment, const std::string& note) {
  return comment.empty() ? note : note + "\n" + comment;
}

// One register sum of adjoints that every thread adds to the same address.
struct ThreadSum {
  std::string name;
  ExprPtr target;  // the address, e.g. a_bar[0]
};

class Parallelizer : public Rewriter {
 public:
  Parallelizer(Function& d, bool tangents, bool deterministic)
      : d_(d), threads_(d), names_(d), tangents_(tangents), deterministic_(deterministic), blockColumns_(d, names_) {
    std::set<std::string> assigned = analysis::assignedVariables(d.body);
    for (const Param& p : d.params)
      if (!p.type.pointer && !assigned.count(p.name)) invariant_.insert(p.name);
  }

  void run() {
    collectAccesses();
    walk(d_.body, [&](const Stmt& s) {
      returns_ |= s.kind == StmtKind::Return;
      if (isLoop(s.kind)) walk(s.body, [&](const Stmt& inner) { inLoops_.insert(&inner); });
    });
    if (deterministic_) {
      radix_.emplace(d_, threads_, invariant_);
      runs_.emplace(d_, threads_);
      findSegmentSums();
    }
    columnWidth_ = commonColumnWidth();
    chooseBlockColumns();
    rewrite(d_.body);
    zeroSharedAdjoints(d_.body);
    placeRowPicks();
    if (sums_.empty() && columns_.empty() && blockColumns_.empty()) return;
    StmtList head = blockColumns_.start(), tail = blockColumns_.finish();
    size_t registers = head.size();
    for (const ThreadSum& s : sums_)
      head.push_back(decl(s.name, s.target->type.element(), number(0, s.target->type.element())));
    for (const ThreadSum& c : columns_)
      head.push_back(decl(c.name, c.target->type.element(), number(0, c.target->type.element())));
    if (!sums_.empty())
      head[registers]->comment = std::string(tangents_  ? "tangents"
                                             : values() ? "values and adjoints"
                                                        : "adjoints") +
                                 " every thread adds to the same address: summed in registers first";
    if (!columns_.empty()) head[registers + sums_.size()]->comment = columnsComment();
    StmtList columns = finishColumns(), sums = finishSums();
    tail.insert(tail.end(), columns.begin(), columns.end());
    tail.insert(tail.end(), sums.begin(), sums.end());
    // Every thread takes part in the sums (they wait at barriers): a thread that returned early
    // (a forward mode keeps the forward's `if (i >= n) return;`) falls through to them instead.
    dropTailReturns(d_.body);
    walk(d_.body, [](const Stmt& s) {
      if (s.kind == StmtKind::Return) throw InternalError("a return before the register sums of a kernel");
    });
    d_.body.insert(d_.body.begin(), head.begin(), head.end());
    d_.body.insert(d_.body.end(), tail.begin(), tail.end());
    d_.sumsBefore = static_cast<unsigned>(head.size());
    d_.sumsAfter = static_cast<unsigned>(tail.size());
    if (!sums_.empty()) d_.params.push_back(Param{naming::kBlockSums, blockSumsType(), Role::BlockSums});
  }

 private:
  Function& d_;
  analysis::ThreadIndexing threads_;
  NameSet names_;
  bool tangents_;  // forward mode: only the atomicAdds the forward wrote are reconsidered
  bool deterministic_;
  std::set<std::string> invariant_;  // scalar parameters the kernel never assigns
  std::vector<ThreadSum> sums_;
  std::vector<ThreadSum> columns_;  // register sums at the thread's column (target: x_bar[i % C])
  ExprPtr columnWidth_;             // their C
  SourceLoc line_;                  // of the forward statement whose adjoint is being visited
  BlockColumnSums blockColumns_;    // adjoint arrays summed per block at columns, in shared memory
  struct Access {
    ExprPtr index;  // null: passed to a call (x_bar, x_bar + k), whose adds land anywhere
    const Stmt* stmt;
  };
  std::map<std::string, std::vector<Access>> accesses_;  // adjoint array -> the indices it is used at
  std::optional<analysis::MixedRadix> radix_;            // --deterministic: made before the rewriting
  std::optional<analysis::RunSlots> runs_;               // likewise
  std::set<const Stmt*> segmentSums_;  // additions that may become sort-and-segment sums (--deterministic)
  std::set<const Stmt*> inLoops_;      // the statements inside loops
  bool returns_ = false;               // whether the kernel returns early somewhere
  struct Pick {
    std::string name;
    Type type;
    ExprPtr bar;
    bool block;  // in a block's row: added after the block's barrier, not the warp's
  };
  std::vector<Pick> picks_;       // additions at columns that data picks (rowPick)
  std::set<const Stmt*> picked_;  // their statements (now calls)

  bool values() const {
    return std::any_of(sums_.begin(), sums_.end(), [&](const ThreadSum& s) {
      const Param* p = d_.param(s.target->operands[0]->text);
      return p && p->role == Role::Primal;
    });
  }

  std::string columnsComment() const {
    return "adjoints a thread adds at its column (its index modulo " + print(*columnWidth_) +
           "): summed in registers\nfirst; the blocks a thread runs in turn keep it on one column";
  }

  // One sum per block and address, added in a fixed order by the last block to finish.
  StmtList finishSums() {
    StmtList tail, finish;
    ExprPtr storage = var(naming::kBlockSums, blockSumsType());
    Type none = Type::of(Scalar::Void);
    for (size_t k = 0; k < sums_.size(); ++k) {
      const ThreadSum& s = sums_[k];
      ExprPtr slot = number(static_cast<double>(k), Type::integer("unsigned", true));
      tail.push_back(
          eval(call("adjoint::sum_over_threads_into",
                    {unary(Op::AddressOf, s.target), var(s.name, s.target->type.element()), storage, slot}, none)));
      finish.push_back(eval(call("adjoint::add_block_sums", {unary(Op::AddressOf, s.target), storage, slot}, none)));
    }
    d_.blockSumSlots = static_cast<unsigned>(sums_.size());
    if (tail.empty()) return tail;
    tail.front()->comment =
        "summed over the threads: one sum per block; the last block to finish adds them in a fixed order\n"
        "(or, launched without block_sums, each block adds its sum with an atomicAdd)";
    tail.push_back(ifStmt(call("adjoint::last_block_to_finish", {storage}, Type::of(Scalar::Bool)), finish));
    return tail;
  }

  // Each thread's column sums, added at its column once: with an atomicAdd, or, deterministic,
  // into its slot of `parts`, which the launcher sums per column in a fixed order.
  StmtList finishColumns() {
    StmtList out;
    Type u = Type::integer("unsigned int", true);
    ExprPtr thread = add(mul(var("blockIdx.x", u), var("blockDim.x", u)), var("threadIdx.x", u));
    for (const ThreadSum& c : columns_) {
      ExprPtr bar = c.target->operands[0];
      ExprPtr at = index(bar, binary(Op::Rem, thread, columnWidth_));
      Type t = c.target->type.element();
      if (!deterministic_) {  // a thread that added nothing (past the end; the buffer not given) adds nothing
        StmtPtr s = assign(at, Op::Add, var(c.name, t));
        s->atomic = true;
        out.push_back(ifStmt(binary(Op::Ne, var(c.name, t), number(0, t)), {s}));
        continue;
      }
      std::string parts = columnParts(bar->text, columnWidth_);
      out.push_back(eval(call("adjoint::add_to_column",
                              {var(parts, t.pointerTo(false)), cast(Type::integer("long long"), thread), bar,
                               cast(Type::integer("long long"), at->operands[1]), var(c.name, t)},
                              Type::of(Scalar::Void))));
    }
    if (!out.empty())
      out.front()->comment = deterministic_
                                 ? "each thread's column sums, into its slot: the launcher adds them per column"
                                 : "each thread's column sums, added once";
    return out;
  }

  // The width C shared by every adjoint the kernel adds at its index modulo C, if they share one
  // (a thread then keeps one column): their sums go in registers.
  ExprPtr commonColumnWidth() const {
    if (!d_.kernel || tangents_) return nullptr;
    ExprPtr width;
    bool common = true;
    walk(d_.body, [&](const Stmt& s) {
      bool shared = false;
      if (s.kind != StmtKind::Assign || (s.op != Op::Add && s.op != Op::Sub)) return;
      ExprPtr target = memoryTarget(*s.lhs, shared);
      if (!target || shared || !isColumnIndex(*target->operands[1])) return;
      const ExprPtr& c = target->operands[1]->operands[1];
      if (width && !sameExpr(*width, *c)) common = false;
      width = c;
    });
    return common ? width : nullptr;
  }

  // The adjoint of a scalar parameter of a device function lives in its caller's thread.
  bool isPrivate(const std::string& bar) const {
    const Param* adjoint = d_.param(bar);
    const Param* primal = adjoint ? d_.param(adjoint->of) : nullptr;
    return !d_.kernel && primal && !primal->type.pointer;
  }

  // An adjoint (tangent) in memory: a parameter of that role, or a shared array of the block
  // (whose name is its primal's with the suffix: the names the generated code reserves).
  bool isMemoryAdjoint(const Expr& array) const {
    if (array.kind != ExprKind::Var) return false;
    if (const Param* p = d_.param(array.text)) return p->role == (tangents_ ? Role::Tangent : Role::Adjoint);
    return array.type.shared && (tangents_ ? naming::isTangent(array.text) : naming::isAdjoint(array.text));
  }

  void collectAccesses() {
    walk(d_.body, [&](const Stmt& s) {
      auto visit = [&](const Expr& e) {
        if (e.kind == ExprKind::Index && isMemoryAdjoint(*e.operands[0]))
          accesses_[e.operands[0]->text].push_back({e.operands[1], &s});
        if (isOp(e, Op::Deref) && isMemoryAdjoint(*e.operands[0]))
          accesses_[e.operands[0]->text].push_back({number(0, Type::integer()), &s});
        if (e.kind == ExprKind::Call)
          for (const ExprPtr& arg : e.operands)
            if (const ExprPtr& array = pointerArg(arg).array; isMemoryAdjoint(*array))
              accesses_[array->text].push_back({nullptr, &s});
      };
      for (const ExprPtr& e : {s.lhs, s.expr}) ir::walk(e, visit);
      for (const ExprPtr& e : s.args) ir::walk(e, visit);
    });
  }

  // Adjoint arrays that a kernel only adds to, at loop counters below one width C the same in every
  // thread (a layernorm's weight_bar[c] over its row's columns): each block sums them in shared
  // memory, then adds each column once, instead of an atomicAdd per thread (or warp) and column.
  // Not with --deterministic (the atomics in shared memory add in no fixed order), nor beside the
  // forward's own dynamic shared memory.
  void chooseBlockColumns() {
    if (!d_.kernel || tangents_ || deterministic_ || d_.dynamicSharedParts) return;
    for (const auto& [bar, uses] : accesses_) {
      const Param* p = d_.param(bar);
      if (!p || !p->type.pointer) continue;
      ExprPtr width;
      bool columns = true;
      for (const Access& u : uses) {
        const Stmt& s = *u.stmt;
        bool added = s.kind == StmtKind::Assign && (s.op == Op::Add || s.op == Op::Sub) && !s.atomic &&
                     s.lhs->kind == ExprKind::Index && s.lhs->operands[1] == u.index;
        auto range = added && u.index->kind == ExprKind::Var ? threads_.counterRange(u.index->text)
                                                             : analysis::ThreadIndexing::CounterRange{};
        columns &= range.bound && readsOnlyInvariants(range.bound) && (!width || sameExpr(*width, *range.bound));
        if (columns) width = range.bound;
      }
      if (columns) blockColumns_.take(bar, width);
    }
  }

  // target += value as an add into the block's column sum `at`: an atomicAdd in shared memory,
  // one per warp where the column is the same in every thread.
  void addInBlock(Stmt& s, const ExprPtr& at, Spread spread, const std::string& read) {
    std::string how = spread == Spread::Uniform ? "one atomicAdd per warp" : "an atomicAdd";
    std::string comment =
        withNote(s.comment, read + ": a column: summed per block in shared memory (" + how + " there), added below");
    if (spread == Spread::Uniform) return warpAdd(s, at, comment);
    s.lhs = at;
    s.expr = addedValue(s);
    s.op = Op::Add;
    s.atomic = true;
    s.comment = comment;
  }

  // What target += e or target -= e adds: e or -e.
  static ExprPtr addedValue(const Stmt& s) { return s.op == Op::Sub ? neg(s.expr) : s.expr; }

  // s, an addition into `at`, as adjoint::warp_add(&at, value): one atomicAdd per warp, for an
  // address that is the same in every thread of the warp.
  static void warpAdd(Stmt& s, const ExprPtr& at, const std::string& comment) {
    replaceByCall(s, call("adjoint::warp_add", {unary(Op::AddressOf, at), addedValue(s)}, Type::of(Scalar::Void)),
                  comment);
  }

  // s replaced by the statement `call;`, at s's source line.
  static void replaceByCall(Stmt& s, ExprPtr call, const std::string& comment) {
    SourceLoc loc = s.loc;
    s = *eval(std::move(call));
    s.comment = comment;
    s.loc = loc;
  }

  // Whether the adjoint array is passed to a call: its pullback adds where it reads, with
  // atomics, which a plain += of the same elements in another thread would race with.
  static bool passedOn(const std::vector<Access>& uses) {
    return std::any_of(uses.begin(), uses.end(), [](const Access& u) { return !u.index; });
  }

  // Whether every use of the adjoint array `bar` is an element of rows with one start
  // (ThreadIndexing::rowStart): each thread then touches elements no other thread does, in
  // launches of the shape `needs` says. Beside them may stand additions at a column that data
  // picks (rowPick) and additions that become sort-and-segment sums: those are added after.
  bool rowElements(const std::string& bar, BlockShape& needs) const { return rowOf(bar, needs) != nullptr; }

  // The start those rows share (else null), their shape in `row`.
  ExprPtr rowOf(const std::string& bar, BlockShape& needs, analysis::ThreadIndexing::Row* row = nullptr) const {
    const std::vector<Access>& uses = accesses_.at(bar);
    if (passedOn(uses)) return nullptr;
    ExprPtr first;
    analysis::ThreadIndexing::Row shape;
    std::vector<const Access*> others;
    for (const Access& u : uses) {
      ExprPtr start = threads_.rowStart(u.index, *u.stmt, needs, &shape);
      if (!start) others.push_back(&u);
      if (start && first && !sameExpr(*start, *first)) return nullptr;
      if (!first) first = start;
    }
    if (!first) return nullptr;
    for (const Access* u : others)
      if (!becomesSegments(*u) && !picked_.count(u->stmt) &&
          !(shape.width && pickedColumn(*u->stmt, u->index, *first).second))
        return nullptr;
    if (row) *row = shape;
    return first;
  }

  // (s, d) of an addition x_bar[s + d] += e beside the rows that start at r * C (`start`), once
  // per run of the kernel (in no loop), s being r * C: d a column data picks (a loss's
  // z[labels[row]]). Else nulls.
  std::pair<ExprPtr, ExprPtr> pickedColumn(const Stmt& s, const ExprPtr& index, const Expr& start) const {
    if (tangents_ || inLoops_.count(&s) || returns_ || s.kind != StmtKind::Assign || s.atomic ||
        (s.op != Op::Add && s.op != Op::Sub) || s.lhs->kind != ExprKind::Index || s.lhs->operands[1] != index)
      return {};
    const Expr& sum = stripCasts(*index);
    if (!isOp(sum, Op::Add)) return {};
    for (int k = 0; k < 2; ++k) {
      const ExprPtr& part = sum.operands[k];
      ExprPtr resolved = threads_.resolvedAt(part, s);
      if (sameExpr(stripCasts(*part), stripCasts(start)) || sameExpr(stripCasts(*resolved), stripCasts(start)))
        return {part, sum.operands[1 - k]};
    }
    return {};
  }

  // An addition at a column of a row that data picks: kept in a register (adjoint::keep_row_pick,
  // which stops the kernel where the column lies outside the row) and added at the end, once the
  // other additions to the row are done (adjoint::add_row_pick: the warp's barrier, then a plain
  // +=; add_block_row_pick: the block's, for a block's row). Nothing else adds there meanwhile,
  // and a store into the row before it does not overwrite it.
  bool rowPick(Stmt& s, const ExprPtr& target, const std::string& read) {
    const std::string& bar = target->operands[0]->text;
    BlockShape needs;
    analysis::ThreadIndexing::Row row;
    ExprPtr rows = rowOf(bar, needs, &row);
    auto [start, column] = rows ? pickedColumn(s, target->operands[1], *rows) : std::pair<ExprPtr, ExprPtr>{};
    if (!column) return false;
    picked_.insert(&s);
    d_.needsOneDimensionalLaunch = true;
    d_.plainAddBlocks.add(needs);
    Type element = target->type.element();
    Type pick = Type::opaque("adjoint::RowPick<" + element.scalarSpelling() + ">");
    std::string name = names_.fresh(bar + "_pick");
    picks_.push_back({name, pick, target->operands[0], row.block});
    Type wide = Type::integer("long long");
    std::string comment = withNote(s.comment, read + ": a column of the row that data picks:\nkept in " + name +
                                                  ", added after the row's other additions");
    replaceByCall(s,
                  call("adjoint::keep_row_pick",
                       {var(name, pick), cast(wide, start), cast(wide, column), cast(wide, row.width), addedValue(s)},
                       Type::of(Scalar::Void)),
                  comment);
    return true;
  }

  // The picks' registers at the top of the kernel, their additions at its end.
  void placeRowPicks() {
    if (picks_.empty()) return;
    StmtList head, tail;
    for (const Pick& p : picks_) {
      head.push_back(decl(p.name, p.type, nullptr));
      std::string add = p.block ? naming::kAddBlockRowPick : naming::kAddRowPick;
      tail.push_back(eval(call(add, {p.bar, var(p.name, p.type)}, Type::of(Scalar::Void))));
    }
    head.front()->comment = "columns of rows that data picks, added after the rows' other additions";
    tail.front()->comment = "the picked columns, added once the other additions to their rows are done";
    d_.body.insert(d_.body.begin(), head.begin(), head.end());
    d_.body.insert(d_.body.end(), tail.begin(), tail.end());
  }

  // Whether the use is an addition that may become a sort-and-segment sum (--deterministic).
  bool becomesSegments(const Access& u) const { return segmentSums_.count(u.stmt) > 0; }

  // The additions into a kernel's adjoint arrays that a sort-and-segment sum can take, in arrays
  // the kernel reads nowhere else (what they add lands after the kernel), found before the
  // rewriting changes them.
  void findSegmentSums() {
    if (!d_.kernel) return;
    std::set<std::string> read = analysis::readVariablesBesidesUpdates(d_.body);
    for (const auto& [bar, uses] : accesses_) {
      if (!d_.param(bar) || read.count(bar)) continue;
      for (const Access& u : uses) {
        const Stmt& s = *u.stmt;
        if (s.kind == StmtKind::Assign && (s.op == Op::Add || s.op == Op::Sub) && !s.atomic &&
            s.lhs->kind == ExprKind::Index && s.lhs->operands[1] == u.index && runs_->of(s))
          segmentSums_.insert(&s);
      }
    }
  }

  // Whether the indices of every use of the adjoint array `bar` are digits of the thread's index,
  // reordered and spread out (a permute's): no two threads share an element. The sizes that
  // proof takes to be at least 1 are then the launcher's to check.
  bool digitsOfThreadIndex(const std::string& bar) {
    const std::vector<Access>& uses = accesses_.at(bar);
    if (passedOn(uses)) return false;
    std::vector<analysis::MixedRadix::Use> indices;
    for (const Access& u : uses) indices.push_back({u.index, u.stmt});
    std::set<std::string> positive;
    if (!radix_->distinctOverThreads(indices, positive)) return false;
    d_.positiveSizes.insert(positive.begin(), positive.end());
    return true;
  }

  // Whether every use of the adjoint array `bar` is at the same index, or at lanes of one: r + k
  // for one r = u + c * g and integer literals 0 <= k < |c| (the fields of a float4 view:
  // x_bar[4 * i], x_bar[4 * i + 1], ...). Then an index injective over threads gives each thread
  // elements no other thread touches: c * g + k = c * g' + k' with |k - k'| < |c| needs g = g'.
  // (x_bar[i] and x_bar[i + 1] are each injective, but thread i's i + 1 is thread i + 1's i.)
  bool singleIndex(const std::string& bar) const {
    const std::vector<Access>& uses = accesses_.at(bar);
    if (passedOn(uses)) return false;
    std::vector<ExprPtr> indices;
    for (const Access& u : uses) indices.push_back(threads_.resolvedAt(u.index, *u.stmt));
    const ExprPtr& front = indices.front();
    if (std::all_of(indices.begin(), indices.end(), [&](const ExprPtr& i) { return sameExpr(*i, *front); }))
      return true;
    const Expr& lanes = *literalOffset(*front).first;
    double width = std::abs(threads_.stride(lanes));
    return std::all_of(indices.begin(), indices.end(), [&](const ExprPtr& i) {
      auto [rest, k] = literalOffset(*i);
      return sameExpr(*rest, lanes) && k >= 0 && k < width;
    });
  }

  static Type blockSumsType() { return Type::opaque("adjoint::BlockSums"); }

  void enter(Stmt& s) override {
    if (s.loc.line) line_ = s.loc;
    if (s.kind == StmtKind::Assign && (s.op == Op::Add || s.op == Op::Sub)) accumulation(s);
  }

  // x_bar[i] = 0; x_bar[i] += e  is  x_bar[i] = e: one store, and no load of what was just stored.
  void rewriteList(StmtList& body) override {
    for (size_t k = 1; k < body.size(); ++k) {
      Stmt& s = *body[k];
      size_t zero = zeroingOf(body, k);
      if (zero == k) continue;
      s.expr = addedValue(s);
      std::string plain = ": plain " + assignmentSpelling(s.op);
      if (size_t at = s.comment.find(plain); at != std::string::npos) s.comment.replace(at, plain.size(), ": plain =");
      s.op = Op::Assign;
      body.erase(body.begin() + static_cast<long>(zero));
      --k;
    }
  }

  // The position of the zeroing of the element body[k] adds to, before it past statements that
  // leave the array and the element's index alone (a named constant of a math call between:
  // common-calls); k if none.
  static size_t zeroingOf(const StmtList& body, size_t k) {
    const Stmt& plain = *body[k];
    if (plain.kind != StmtKind::Assign || !plain.lhs) return k;
    std::set<std::string> index = analysis::readVariables(plain.lhs);
    for (size_t j = k; j-- > 0;) {
      if (zeroedBefore(*body[j], plain)) return j;
      bool moves = false;  // the index
      for (const std::string& v : analysis::writtenVariables(StmtList{body[j]})) moves |= index.count(v) > 0;
      if (moves || mentions(*body[j], rootName(*plain.lhs)) > 0 || jumpsOut(*body[j])) return k;
    }
    return k;
  }

  // Whether `zero` stores 0 where `plain`, a plain (not atomic) accumulation, adds.
  static bool zeroedBefore(const Stmt& zero, const Stmt& plain) {
    return plain.kind == StmtKind::Assign && !plain.atomic && (plain.op == Op::Add || plain.op == Op::Sub) &&
           zero.kind == StmtKind::Assign && zero.op == Op::Assign && !zero.atomic && isZero(zero.expr) &&
           sameExpr(*zero.lhs, *plain.lhs) && !reads(plain.expr, rootName(*plain.lhs));
  }

  // The memory an adjoint is added to: x_bar[i] for an array, *p_bar for a scalar parameter.
  ExprPtr memoryTarget(const Expr& lhs, bool& shared) const {
    shared = false;
    if (isOp(lhs, Op::Deref) && isMemoryAdjoint(*lhs.operands[0]) && !isPrivate(lhs.operands[0]->text))
      return index(lhs.operands[0], number(0, Type::integer()));
    if (lhs.kind != ExprKind::Index || lhs.operands[0]->kind != ExprKind::Var) return nullptr;
    const Expr& array = *lhs.operands[0];
    if (!isMemoryAdjoint(array)) return nullptr;
    shared = array.type.shared;
    return std::make_shared<Expr>(lhs);
  }

  void accumulation(Stmt& s) {
    if (forwardSum(s)) return;
    if (tangents_ && !s.atomic) return;
    bool shared = false;
    ExprPtr target = memoryTarget(*s.lhs, shared);
    if (!target) return;
    const std::string& bar = target->operands[0]->text;
    std::string read = bar.substr(0, bar.size() - 4) + "[" + print(*target->operands[1]) + "]";
    Spread spread = threads_.spread(threads_.resolvedAt(target->operands[1], s));
    if (!d_.kernel && !shared) spread = Spread::Varying;
    bool injective =
        (spread == Spread::GridInjective || (shared && spread == Spread::BlockInjective)) && singleIndex(bar);
    BlockShape needs;
    bool ownColumns = !injective && d_.kernel && !shared && rowElements(bar, needs) &&
                      threads_.rowStart(target->operands[1], s, needs);
    // A block's row in blocks of at most a warp (columns from threadIdx.x by 32): the plain +=
    // measured slower than the atomics on the H200 (row_softmax's vjp 0.24 ms against 0.17 ms,
    // row_layernorm's 0.275 against 0.25), so it is kept for --deterministic, where the
    // alternative is no gradient.
    if (ownColumns && needs.maxThreads && !deterministic_) ownColumns = false;
    if ((injective || ownColumns) && !tangents_) {
      d_.needsOneDimensionalLaunch = true;
      d_.plainAddBlocks.add(ownColumns ? needs : threads_.indexBlocks());
      std::string why = injective ? "index injective over threads" : "each thread its own elements of a row";
      s.comment = withNote(s.comment, read + ": " + why + ": plain " + assignmentSpelling(s.op));
      return;
    }
    if (!injective && !shared && d_.kernel && rowPick(s, target, read)) return;
    if (ExprPtr at = blockColumns_.at(bar, target->operands[1])) return addInBlock(s, at, spread, read);
    // A device function cannot know which threads call it with which arguments.
    if (!d_.kernel) spread = Spread::Varying;
    if (!shared && spread == Spread::Uniform && readsOnlyInvariants(target->operands[1])) {
      s.lhs = var(threadSum(target), target->type.element());
      s.atomic = false;
      s.comment = withNote(s.comment, read + ": the same address in every thread: summed in a register, added below");
      return;
    }
    if (tangents_) return;  // the forward's own atomicAdd, kept
    // At a bias's index, i % C with every such index of the kernel modulo the same C: summed in a
    // register (the launcher keeps each thread on one column), added once per thread.
    if (!shared && d_.kernel && columnWidth_ && isColumnIndex(*target->operands[1])) {
      s.lhs = var(columnSum(target), target->type.element());
      s.atomic = false;
      s.comment = withNote(s.comment, read + ": one column per thread: summed in a register, added below");
      d_.needsOneDimensionalLaunch = true;
      d_.columnWidth = columnWidth_;
      return;
    }
    // Deterministic adjoints at a bias's index: slots per thread, summed per column in a fixed
    // order. (Without --deterministic the atomics below measured faster: W2 on the H200, 5.46 ms
    // against 5.74 with column sums.)
    if (deterministic_ && !shared && d_.kernel && isColumnIndex(*target->operands[1])) {
      const Expr& index = *target->operands[1];
      std::string parts = columnParts(bar, index.operands[1]);
      std::string comment = withNote(s.comment, read + ": many blocks share the index: a slot per thread in " + parts +
                                                    ", summed per column by the launcher");
      Type slots = Type::integer("long long");
      replaceByCall(s,
                    call("adjoint::add_to_column",
                         {var(parts, target->type.element().pointerTo(false)), cast(slots, index.operands[0]),
                          target->operands[0], cast(slots, target->operands[1]), addedValue(s)},
                         Type::of(Scalar::Void)),
                    comment);
      d_.needsOneDimensionalLaunch = true;
      return;
    }
    if (!shared && d_.kernel && spread == Spread::Uniform && !deterministic_) {
      // The address changes (with a loop counter, say) but is the same in every thread at a time.
      return warpAdd(
          s, target,
          withNote(s.comment, read + ": the same address in every thread of a warp: one atomicAdd per warp"));
    }
    // An element no other thread adds to (a permute's) gets one atomicAdd per statement: the same sum
    // in any order. The plain += measured slower there (permute's vjp on the H200: 0.089-0.092 ms
    // against 0.088 with atomics), so the proof serves --deterministic, which would refuse the kernel.
    if (deterministic_ && !shared && d_.kernel && digitsOfThreadIndex(bar)) {
      s.expr = addedValue(s);
      s.op = Op::Add;
      s.atomic = true;
      s.comment = withNote(s.comment, read +
                                          ": the digits of the thread's index, reordered: no two threads share it: "
                                          "atomicAdd, deterministic");
      d_.needsOneDimensionalLaunch = true;
      return;
    }
    if (deterministic_) {
      // In memory that threads of many blocks share: a sort-and-segment sum, where the runs of the
      // addition can be counted before the launch.
      bool global = !shared && d_.kernel;
      if (std::optional<analysis::RunSlot> run = global ? runs_->of(s) : std::nullopt)
        return addToSegments(s, target, *run, read);
      throw Diagnostic(
          s.loc.line ? s.loc : line_,
          "--deterministic: the adjoint of " + read + " needs a floating-point atomicAdd (threads may share the index" +
              (global ? ", and a loop around it runs a number of times not known before the launch)" : ")"),
          global ? "a sort-and-segment sum records a slot per run of the addition: a thread runs it "
                   "once, or in counted loops whose bounds are literals, the kernel's scalar "
                   "parameters or blockDim.x; or drop --deterministic"
                 : "index arrays read in the kernel by the thread's index (i = blockIdx.x * blockDim.x "
                   "+ threadIdx.x), or drop --deterministic");
    }
    s.expr = addedValue(s);
    s.op = Op::Add;
    s.atomic = true;
    auto uses = accesses_.find(bar);
    std::string why = uses != accesses_.end() && passedOn(uses->second)
                          ? bar + " also goes to a call, which may add here from another thread"
                          : "threads may share the index";
    s.comment = withNote(s.comment, read + ": " + why + ": atomicAdd" + (shared ? " in shared memory" : ""));
  }

  // The forward's own atomicAdd into one address of an output that the kernel reads nowhere else
  // (the loss that K_value_and_vjp writes): summed in registers and per block like the adjoints,
  // instead of one atomic per thread on one address.
  bool forwardSum(Stmt& s) {
    if (tangents_ || !s.atomic || !d_.kernel || s.lhs->kind != ExprKind::Index) return false;
    const Expr& array = *s.lhs->operands[0];
    const Param* p = array.kind == ExprKind::Var ? d_.param(array.text) : nullptr;
    if (!p || p->role != Role::Primal || !p->type.pointer ||
        analysis::readVariablesBesidesUpdates(d_.body).count(p->name))
      return false;
    const ExprPtr& at = s.lhs->operands[1];
    if (threads_.spread(at) != Spread::Uniform || !readsOnlyInvariants(at)) return false;
    std::string read = array.text + "[" + print(*at) + "]";
    s.lhs = var(threadSum(s.lhs), s.lhs->type.element());
    s.atomic = false;
    s.comment = withNote(s.comment, read + ": the same address in every thread: summed in a register, added below");
    return true;
  }

  // t % C, with t the thread's global index and C the same in every thread: a bias's index,
  // broadcast over rows of C.
  bool isColumnIndex(const Expr& index) const {
    return isOp(index, Op::Rem) && threads_.isThreadIndex(*index.operands[0]) &&
           !index.operands[1]->type.isFloating() && readsOnlyInvariants(index.operands[1]);
  }

  // The launcher-provided slots per thread for the adjoint array `bar` at columns of `columns`.
  std::string columnParts(const std::string& bar, const ExprPtr& columns) {
    for (const Function::ColumnSum& c : d_.columnSums)
      if (c.target == bar && sameExpr(*c.columns, *columns)) return c.parts;
    std::string name = names_.fresh(bar + "_parts");
    d_.columnSums.push_back({name, bar, columns});
    d_.params.push_back(Param{name, d_.param(bar)->type.element().pointerTo(false), Role::ColumnParts});
    return name;
  }

  // Deterministic adjoints at an index threads may share (read from data: an embedding's row):
  // sort-and-segment sums (SegmentSums.h), per row where an element the thread owns anchors it.
  void addToSegments(Stmt& s, const ExprPtr& target, const analysis::RunSlot& run, const std::string& read) {
    const std::string& bar = target->operands[0]->text;
    std::optional<RowAnchor> anchor = findRowAnchor(d_, threads_, invariant_, indexUses(bar), s, target->operands[1]);
    SegmentAddition a = anchor ? addToRowSegment(d_, names_, target, run, *anchor, addedValue(s))
                               : addToSegment(d_, names_, target, run, addedValue(s));
    replaceByCall(s, a.call, withNote(s.comment, read + a.note));
    d_.needsOneDimensionalLaunch = true;
  }

  // The indices at which the kernel uses its adjoint arrays other than `bar`.
  std::vector<IndexUse> indexUses(const std::string& bar) const {
    std::vector<IndexUse> uses;
    for (const auto& [array, at] : accesses_)
      if (array != bar)
        for (const Access& u : at)
          if (u.index) uses.push_back({u.index, u.stmt});
    return uses;
  }

  bool readsOnlyInvariants(const ExprPtr& e) const {
    for (const std::string& v : analysis::readVariables(e))
      if (!invariant_.count(v)) return false;
    return true;
  }

  // The register of the column sums of target's adjoint array.
  std::string columnSum(const ExprPtr& target) {
    const std::string& bar = target->operands[0]->text;
    for (const ThreadSum& c : columns_)
      if (c.target->operands[0]->text == bar) return c.name;
    std::string name = names_.fresh(bar + "_column");
    columns_.push_back({name, target});
    return name;
  }

  std::string threadSum(const ExprPtr& target) {
    for (const ThreadSum& s : sums_)
      if (sameExpr(*s.target, *target)) return s.name;
    std::string name = names_.fresh(target->operands[0]->text + "_sum");
    sums_.push_back({name, target});
    return name;
  }

  // Shared adjoint arrays start at zero: the block clears them together, then waits.
  void zeroSharedAdjoints(StmtList& body) {
    for (size_t k = 0; k < body.size(); ++k) {
      const Stmt& s = *body[k];
      if (s.kind != StmtKind::Decl || !s.type.shared || !naming::isAdjoint(s.name)) continue;
      Type u = Type::integer("unsigned", true);
      ExprPtr size = s.type.arraySize > 0 ? number(s.type.arraySize, u)
                                          : call("adjoint::dynamic_shared_size<" + s.type.scalarSpelling() + ">",
                                                 {number(d_.dynamicSharedParts, u)}, u);
      StmtPtr clear = blockStrideLoop("j", u, size, [&](const ExprPtr& j) {
        return StmtList{assign(index(var(s.name, s.type), j), Op::Assign, number(0, s.type.element()))};
      });
      clear->comment = "the block clears its shared adjoints before any thread adds to them";
      body.insert(body.begin() + static_cast<long>(k) + 1,
                  {clear, eval(call("__syncthreads", {}, Type::of(Scalar::Void)))});
      k += 2;
    }
  }
};

}  // namespace

void parallelizeAdjoints(Function& d, bool deterministic) { Parallelizer(d, false, deterministic).run(); }

void parallelizeTangents(Function& d) { Parallelizer(d, true, false).run(); }

}  // namespace adjoint::transforms
