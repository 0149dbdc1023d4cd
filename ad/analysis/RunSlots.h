// Which run of a statement a kernel's thread is in: the thread's index and the iteration of each
// counted loop around the statement, numbered together as one slot, distinct over every run of
// the statement in the launch. A sort-and-segment sum (--deterministic) records each run's
// addition in its slot.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ad/analysis/Loops.h"
#include "ad/analysis/ThreadIndex.h"
#include "ad/ir/Function.h"

namespace adjoint::analysis {

struct RunSlot {
  ir::ExprPtr slot;       // in [0, threads * perThread), long long: run * threads + thread
  ir::ExprPtr perThread;  // the runs a thread may make, over the kernel's scalar parameters and
                          // the launch's sizes
};

class RunSlots {
 public:
  RunSlots(const ir::Function& kernel, const ThreadIndexing& threads);
  // The slot of a statement of the kernel, or nothing where a loop around it runs a number of
  // times not known before the launch (a while loop, bounds read from memory).
  // A counted loop's iterations are known from its bounds and step where those are literals,
  // scalar parameters or the launch's sizes (blockDim.x, gridDim.x), or, where one end differs
  // between threads (a lane's c = lane; c < C; c += 32, a block's c = threadIdx.x; c < C;
  // c += blockDim.x, a grid-stride loop from the thread's index), from the range its counter
  // keeps to ([0, C)).
  std::optional<RunSlot> of(const ir::Stmt& s) const;

 private:
  struct Around {
    bool known;                    // the loop's iterations can be counted before the launch
    ir::ExprPtr iteration, trips;  // the iteration a run is in, in [0, trips)
  };
  std::map<const ir::Stmt*, std::vector<Around>> loops_;  // outermost first
  const ThreadIndexing& threads_;
  std::set<std::string> invariant_;  // the kernel's scalar parameters that it never assigns

  void collect(const ir::StmtList& body, std::vector<Around>& around);
  Around iterations(const ir::Stmt& loop) const;
  bool isInvariant(const ir::ExprPtr& e) const;
};

}  // namespace adjoint::analysis
