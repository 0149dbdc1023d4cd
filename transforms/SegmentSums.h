// Part of parallel-adjoints (ParallelAdjoints.cpp), under --deterministic: sort-and-segment sums
// of the adjoints added at indices threads may share (read from data), instead of atomics
// (adjoint/segments.h). Each run of such an addition records its (index, value) pair in a slot of
// its own, sorted by index after the kernel; or, as row segments, an addition at a row of the
// target that data picks per row (an embedding's wte_bar[inp[bt] * C + c]), beside an element the
// thread owns in rows of the same width at the same column (out_bar[bt * C + c]), keeps its value
// in that element's slot and the row's key once per row, and the rows, not the elements, are
// sorted by key.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ad/analysis/RunSlots.h"
#include "ad/analysis/ThreadIndex.h"
#include "ad/ir/Function.h"
#include "ad/ir/Names.h"

namespace adjoint::transforms {

struct RowAnchor {
  ir::ExprPtr at;        // an element the thread owns at each run of the addition, from names in scope there
  ir::ExprPtr width;     // C: `at` and the target's index agree modulo C
  ir::BlockShape needs;  // what the ownership of `at` asks of the launch's blocks
};

struct IndexUse {
  ir::ExprPtr index;
  const ir::Stmt* stmt;
};

// The anchor of the addition `s` at `index` of an adjoint array, from the indices `uses` the
// kernel reads or writes its other adjoint arrays at; nothing where none is found. `invariant`:
// the kernel's scalar parameters it never assigns.
std::optional<RowAnchor> findRowAnchor(const ir::Function& kernel, const analysis::ThreadIndexing& threads,
                                       const std::set<std::string>& invariant, const std::vector<IndexUse>& uses,
                                       const ir::Stmt& s, const ir::ExprPtr& index);

// The call that replaces a deterministic addition of `value` at `target` (x_bar[i]), the note
// for its comment, and the launcher's slots and sums it adds to the kernel `d`.
struct SegmentAddition {
  ir::ExprPtr call;
  std::string note;
};
// Each run's (index, value) pair in its slot (`run`) of the kernel's keys and values.
SegmentAddition addToSegment(ir::Function& d, ir::NameSet& names, const ir::ExprPtr& target,
                             const analysis::RunSlot& run, const ir::ExprPtr& value);
// The value in the slot of the anchor's element, the row's key once per row.
SegmentAddition addToRowSegment(ir::Function& d, ir::NameSet& names, const ir::ExprPtr& target,
                                const analysis::RunSlot& run, const RowAnchor& anchor, const ir::ExprPtr& value);

}  // namespace adjoint::transforms
