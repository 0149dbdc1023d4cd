// How the values of a kernel spread over its threads: which are the same in every thread, which
// differ, and which indices no two threads share. This decides how a kernel's adjoints are
// accumulated: a plain += where the index is injective over threads, one sum per block where
// every thread adds to the same address, an atomic otherwise.
//
// Injectivity is claimed for one-dimensional launches only (kernels that read no .y or .z of
// threadIdx, blockIdx, blockDim or gridDim); their launchers check the launch's shape.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ad/ir/Function.h"

namespace adjoint::analysis {

enum class Spread {
  Uniform,         // the same value in every thread of the grid
  Varying,         // may differ between threads, and two threads may share it
  BlockInjective,  // distinct in the threads of one block (threadIdx.x and its affine variants)
  GridInjective,   // distinct in all threads of the grid, in every iteration of a grid-stride loop
};

class ThreadIndexing {
 public:
  explicit ThreadIndexing(const ir::Function& kernel);

  Spread spread(const ir::ExprPtr& e) const;
  // For an element r * C + c of a row, where the statement `use` reads it: r * C (else null). c is
  // a loop counter in [0, C) and r the thread's own row (injective over the grid), or r is a
  // warp's row (blockIdx.x * warps + threadIdx.x / 32, one per warp of the grid) and c a counter
  // over the warp's lanes (from threadIdx.x % 32, by multiples of 32), or r is the block's row
  // (blockIdx.x) and c a counter over its threads (from threadIdx.x, by blockDim.x, or by a
  // literal no smaller than the block). A thread's elements of rows
  // with one start are then its own. r * C may be a local that the forward sweep sets under guards
  // that enclose `use` too.
  // Some rows are a thread's own only in launches of some shapes, which `needs` then records:
  // a warp of the grid's row ((blockIdx.x * blockDim.x + threadIdx.x) / 32) needs blocks of
  // whole warps; a block's row with counters stepped from threadIdx.x by a literal s needs blocks
  // of at most s threads.
  // `shape`, where given, receives the row's width C and whether a block's threads share it.
  struct Row {
    ir::ExprPtr width;
    bool block = false;
  };
  ir::ExprPtr rowStart(const ir::ExprPtr& e, const ir::Stmt& use, ir::BlockShape& needs, Row* shape = nullptr) const;
  struct CounterRange {
    ir::ExprPtr bound;     // the values lie in [0, bound); null: not known
    bool lanes = false;    // the lanes of a warp hold different values
    bool threads = false;  // the threads of a block hold different values
    // The threads of a block of at most this many threads hold different values (every loop
    // starts at threadIdx.x and steps by this literal); 0: not known.
    unsigned threadsUpTo = 0;
  };
  CounterRange counterRange(const std::string& counter) const;
  // Whether e is the global index of the thread (blockIdx.x * blockDim.x + threadIdx.x), or a
  // local defined once as that: one value per thread, below gridDim.x * blockDim.x.
  bool isThreadIndex(const ir::Expr& e) const;
  // The value of a local declared once with it, never assigned, outside control that varies
  // between threads (idx of `int idx = (blockIdx.x * blockDim.x + threadIdx.x) * 8;`); else null.
  ir::ExprPtr onlyValue(const ir::Expr& e) const;
  // e where the statement `use` reads it: each local the forward sweep declares at the top and
  // sets once under guards that enclose `use` too replaced by the value it sets there (a pack's
  // view, packed_offset + k, is idx + k where packed_offset = idx under if (idx < N)).
  ir::ExprPtr resolvedAt(const ir::ExprPtr& e, const ir::Stmt& use) const;
  // e with each local replaced, again and again, by the value of its one declaration (under any
  // control) or the one resolvedAt finds; loop counters stay. The form of an index, to compare
  // with another's: no proof that a local means the same where the two are read.
  ir::ExprPtr expandedAt(const ir::ExprPtr& e, const ir::Stmt& use) const;
  // The literal c of c * g, g * c or u + c * g, for g injective over threads, or of a local defined
  // once as one (idx of `int idx = gid * 8`, a pack's start); 1 for another index. (In i + 4 * n,
  // the part with the stride is the same in every thread: its lanes i and i + 1 meet across
  // threads.)
  double stride(const ir::Expr& index) const;
  // Whether the kernel relies on a one-dimensional launch for its injectivity claims.
  bool oneDimensional() const { return oneDimensional_; }
  // What its injectivity claims ask of the launch's blocks: at most C threads where a thread's
  // index is written blockIdx.x * C + threadIdx.x for a literal C (a kernel template's BLOCK).
  const ir::BlockShape& indexBlocks() const { return indexBlocks_; }

 private:
  struct Condition {
    ir::ExprPtr expr;
    bool loop;  // a loop's condition, else an if's
  };
  struct Definition {
    ir::ExprPtr value;
    bool underVaryingControl;
    const ir::Stmt* stmt;
    bool inLoop;
  };
  std::map<std::string, std::vector<Definition>> defs_;
  std::map<const ir::Stmt*, std::vector<ir::ExprPtr>> guards_;  // the ifs' conditions around each statement
  std::map<std::string, std::vector<const ir::Stmt*>> loops_;   // the for loops that declare each counter
  std::set<std::string> varying_, gridInjective_, blockInjective_, writtenArrays_;
  std::set<std::string> threadIndexAliases_;  // locals holding threadIdx.x
  std::set<std::string> globalIndexVars_;     // locals holding the global thread index
  bool oneDimensional_ = true;
  ir::BlockShape indexBlocks_;

  void collect(const ir::StmtList& body, std::vector<Condition>& conditions);
  bool isVarying(const ir::ExprPtr& e) const;
  bool isGridStrideCounter(const std::string& v) const;
  bool isGlobalThreadIndex(const ir::Expr& e) const;
  bool isShiftedGlobalIndex(const ir::Expr& e) const;
  const Definition* onlyDefinition(const ir::Expr& e) const;
  ir::ExprPtr valueAt(const ir::Expr& e, const ir::Stmt& use) const;
  bool isWarpRow(const ir::Expr& e, ir::BlockShape& needs) const;
  bool isLane(const ir::Expr& e) const;
  const ir::Expr& throughLocals(const ir::Expr& e) const;
};

}  // namespace adjoint::analysis
