// Recognition of counted loops: `for (int i = a; i < b; ++i)` (and <=, and the decreasing
// forms, and increasing steps `i += s` by a positive s the body leaves alone, as grid-stride
// loops take) whose counter and bounds the body leaves alone. Their reverse runs the counter
// backwards; every other loop records its trip count.
#pragma once

#include "ad/ir/Stmt.h"

namespace adjoint::analysis {

struct CountedLoop {
  std::string counter;
  ir::Type counterType;
  ir::ExprPtr first;  // a
  ir::ExprPtr bound;  // b
  bool increasing;    // ++i with < or <=, else --i with > or >=
  bool inclusive;     // <= or >=
  ir::ExprPtr step;   // s of `i += s`; null for a step of 1
};

// The counted-loop view of `s`, or false when `s` is not a counted loop.
bool asCountedLoop(const ir::Stmt& s, CountedLoop& out);

// The counter's last value, when the loop runs at all: b - 1 for `i < b` (b for `i <= b`), and
// a + (b - 1 - a) / s * s with a step s.
ir::ExprPtr lastValue(const CountedLoop& loop);

// The loop over the same values backwards, running `body`: from the last value down to a.
ir::StmtPtr reversedLoop(const CountedLoop& loop, ir::StmtList body);

// Whether `s` is the loop that reversedLoop writes for an increasing strided loop (the for
// inside its if), and if so the counted loop it runs backwards.
bool asReversedStridedLoop(const ir::Stmt& s, CountedLoop& forward);

}  // namespace adjoint::analysis
