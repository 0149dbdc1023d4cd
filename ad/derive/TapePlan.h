// What the reverse sweep needs from the forward sweep ("to be recorded" analysis).
//
// The reverse sweep visits statements in reverse order and needs, at each statement, the values
// the forward sweep had there. A variable the reverse reads (in a partial derivative, an index,
// a recomputed condition or loop bound) keeps its final value unless something overwrites it
// later; so an overwrite at S must save the old value (push before S, pop in the reverse of S)
// exactly when some statement that can run before S — earlier in program order, or anywhere in a
// loop that encloses S — has a reverse that reads the variable. Everything else is recomputed
// from the final state: no tape for values nobody overwrites.
//
// Branch decisions are recomputed when the condition reads nothing its branches assign, and
// recorded otherwise; counted loops run their counter backwards, other loops record trip counts.
//
// A local declared in a loop body from values the loop does not change (parameters, counters,
// other such locals) is recomputed at the top of each reverse iteration instead of taped (one in
// a branch of an if, at the top of the branch's reverse), and so is a value an if chooses from
// such values.
//
// The reverse of a statement may also read the value the statement itself assigned (the call's
// result, for a rule that takes it: readsAfter): for the dataflow that read comes after the
// statement's write, so overwrites after the statement keep the value, and the statement's own
// restore, if any, runs after its reverse.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>

#include "ad/ir/Function.h"

namespace adjoint::derive {

struct TapePlan {
  // Loop-body declarations the reverse recomputes, and values chosen by an if (T v = c; if (...)
  // { v = a; } else { v = b; }): the declaration, the if and its assignments.
  std::set<const ir::Stmt*> recomputed;
  std::set<const ir::Stmt*> restored;     // overwrites that save the old value
  std::set<const ir::Stmt*> tapedBranch;  // ifs whose decision is recorded
  std::set<const ir::Stmt*> inLoop;       // statements inside some loop
  std::set<std::string> reverseReads;     // variables the reverse sweep reads or restores
};

struct TapeRequests {
  // Every overwrite of these variables is restored, needed or not: the caller's buffers, which a
  // vjp leaves as it received them.
  std::set<std::string> alwaysRestored;
  // Stores into these are left out of the forward sweep: nothing to restore.
  std::set<std::string> neverStored;
  // Statements whose reverse reads the value the statement itself assigns (a call's result, which
  // its rule reads): that variable, which the reverse reads after the statement's write and
  // before its restore. Overwrites after the statement keep the value for it.
  std::map<const ir::Stmt*, std::string> readsAfter;
};

// `reverseReads(s)` gives the variables the reverse code of the single statement `s` reads (for
// compound statements: their header only), as they were before `s`, apart from its readsAfter.
TapePlan planTape(const ir::StmtList& body, const ir::Module& m,
                  const std::function<std::set<std::string>(const ir::Stmt&)>& reverseReads,
                  const TapeRequests& requests = {});

// The declarations of loop bodies that can be recomputed in the reverse sweep (see above).
std::set<const ir::Stmt*> recomputableDeclarations(const ir::StmtList& body, const ir::Module& m);

}  // namespace adjoint::derive
