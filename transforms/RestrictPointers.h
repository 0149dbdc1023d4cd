// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Reverse mode of kernels: marks __restrict__ the pointer parameters of the forward's buffers
// that the vjp kernel only reads. A vjp writes only adjoints and its own scratch, so nothing the
// kernel runs changes those buffers, and the compiler may move their loads across the stores
// into adjoints (load the next round's inputs before this round's adjoints are stored). Buffers
// passed twice stay correct: restrict asks only that what one pointer reads no other writes.
// The adjoint buffers are not marked: host code may pass one buffer for two of them.
void restrictReadOnlyPointers(ir::Function& kernel);

}  // namespace adjoint::transforms
