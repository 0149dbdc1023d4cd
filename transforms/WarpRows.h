// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Reverse mode of kernels, after parallelizeAdjoints: a kernel written a thread per row (matvec's
// `for (c = 0; c < cols; ++c) sum += A[r * cols + c] * x[c]`) walks each row in one thread, so
// the warp's loads lie a row apart, each a line of its own. The reverse of such a loop, where its
// iterations are independent (each adds to adjoints at its own element, or with atomics, and
// reads what the loop leaves alone), runs as one walk of the warp over its threads' rows, row
// after row, lane l at the l-th of every 32 iterations: the values of the row's thread that an
// iteration reads come from its lane (adjoint::from_lane), and the warp's column sums in shared
// memory take an atomicAdd per iteration. What the loop only adds to in its thread's locals (a
// row's sum: softmax's sum of y_bar * y) the lanes add per row (adjoint::add_to_row) into a slot
// per thread in shared memory, which each thread adds to its local after the walk; not with
// --deterministic. A loop under the kernel's bounds test (`if (r < rows)`)
// takes the test along as a flag that every lane reads, its other statements staying in their
// thread. Returns whether a loop changed.
bool walkRowsByWarp(ir::Function& d, bool deterministic);

}  // namespace adjoint::transforms
