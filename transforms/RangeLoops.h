// What the passes over a row's loops in device code share (transforms/JoinRowPasses.h,
// transforms/ForwardSums.h): a loop over a range, whether two run over the same values, and what
// an expression reads where it is to be evaluated again elsewhere.
#pragma once

#include <map>
#include <set>
#include <string>

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// A loop statement of a list: a for, or an if around one alone (a reversed strided loop is
// `if (a < b) for (...)`).
struct RangeLoop {
  ir::StmtPtr stmt;  // in the list: the if, or the for
  ir::Stmt* loop = nullptr;
  const ir::Expr* guard = nullptr;
  const std::string& counter() const { return loop->init->name; }
  ir::ExprPtr counterVar() const { return ir::var(loop->init->name, loop->init->type); }
};

bool asRangeLoop(const ir::StmtPtr& s, RangeLoop& out);

// Whether two loops run their counters over the same values, given the same values of the
// variables of their bounds.
bool sameRange(const RangeLoop& a, const RangeLoop& b);

// `e` with the variables `names` has replaced by their expressions.
ir::ExprPtr renamed(const ir::ExprPtr& e, const std::map<std::string, ir::ExprPtr>& names);

// What an expression reads: scalars by name (with their types), arrays it loads.
struct Reads {
  std::map<std::string, ir::Type> scalars;
  std::set<std::string> arrays;
};

// Adds what `e` reads to `out`. False for anything that cannot be evaluated again elsewhere: a
// call with effects, a tape, a dereference, the program's own code, shared memory.
bool collectReads(const ir::ExprPtr& e, const ir::Module& m, Reads& out);

// Whether the statement (or one nested in it) leaves early or waits at a barrier.
bool jumpsOrWaits(const ir::StmtPtr& s);

// "the loop of line 32" (its forward line), for comments; "a loop" where it has none.
std::string loopPlace(const ir::Stmt& s);

// How many times each variable is mentioned (read or assigned) in the statements.
std::map<std::string, int> mentions(const ir::StmtList& body);

}  // namespace adjoint::transforms
