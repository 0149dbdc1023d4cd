// Where the forward sweep of host code keeps the values its pullbacks read (see HostLevel.h): a
// version of a buffer per write whose old value a pullback reads, saves per iteration in loops,
// and in a training step the buffers f writes used in place.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "ad/analysis/Loops.h"
#include "ad/derive/HostProgram.h"
#include "ad/derive/HostSteps.h"
#include "ad/ir/Names.h"

namespace adjoint::derive {

// A copy of a buffer, made before step `createdBefore` from `copiedFrom`: one the forward sweep
// writes into, or, for a buffer a training step writes in place, what it held before that step.
struct Version {
  std::string name, buffer;
  size_t createdBefore;  // the step before which it is made, as a copy of the version before it
  std::string copiedFrom;
};

// What a step in a loop overwrites in a buffer that the loop's pullbacks read: saved per
// iteration before the step runs, put back before its pullback.
struct Save {
  size_t step;
  const BufferArg* arg;
  std::string tape, slot;  // the scratch holding the saved values; the local of its elements per iteration
};

struct VersionPlan {
  std::vector<Version> versions;
  std::vector<Save> saves;
  std::set<std::string> inPlace;  // buffers a training step writes in place
};

// Each step that writes a buffer writes a copy of it: the first copy of the caller's buffer, and
// in reverse mode a new copy where the pullback of a step before (or of this step) reads what it
// holds. The steps of a loop run in the versions made before it: what a step in the loop
// overwrites and the loop's pullbacks read is saved per iteration instead. A training step
// (`train`), which may write the buffers f writes, runs in them instead: where a pullback reads
// what a buffer holds before a step overwrites it, that is copied out first. Sets each step's
// `before` and `after` versions; new names come from `names`.
VersionPlan planVersions(std::vector<Step>& steps, const std::vector<HostLoop>& loops, const ir::Function& f,
                         bool reverse, bool train, ir::NameSet& names);

}  // namespace adjoint::derive
