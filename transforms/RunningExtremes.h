// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// In kernels and device functions, a running maximum or minimum over a loop,
//   m = fmaxf(m, e);   or   if (e > m) m = e;
// where e reads only the loop's counter and values the loop does not change, is tracked apart
// from m, and m is set once after the loop from the iteration that last raised it:
//   float m_running = m; bool m_raised = false; int m_at = 0;
//   for (...) { if (!(m_running >= e)) { m_running = e; m_raised = true; m_at = c; } }
//   if (m_raised) m = e with c = m_at;
// That is fmax's derivative (the partial goes to e where e won, to m where m stayed), and the
// reverse needs no value of m per iteration: device code has no tapes. m_running's statement is
// passive (Stmt::passive): the comparisons read it, no derivative flows through it. Only loops
// outside other loops: m_at holds one iteration per run of the loop.
void trackRunningExtremes(ir::Function& f, const ir::Module& m);

}  // namespace adjoint::transforms
