// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// A return inside a loop first becomes `result = e; returned = true; break;`, with
// `if (returned) return result;` after the loop. Then this brings break, continue and return into
// tail position (the statements after an if that may jump move into the branches that fall
// through, copied when both can; uniqueLocalNames then renames the copies' declarations): `if (c) { A; break; } B`
// becomes `if (c) { A; break; } else { B }`, a continue is dropped (what follows moves into the else), and a for loop
// that holds a break or continue, or is not a counted loop, becomes a while loop whose step runs on each path that
// continues. Afterwards a jump is always the last statement of its branch, so the reverse sweep can replay each
// iteration's path from the recorded branch decisions alone.
// The block of a call the frontend inlined (ir::Stmt::inlinedCall) is structured first, as a
// function of its own: its returns leave the block, and once in tail position they are dropped.
void structureJumps(ir::Function& f);

}  // namespace adjoint::transforms
