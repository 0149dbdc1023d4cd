// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Device code: the lanes of a 128-bit vector (four floats, two doubles) that a derivative reads or
// writes one at a time, moved in one access, as the forward moves its packs (load128, float4).
// Scalar accesses at a stride of 16 bytes per thread take four memory instructions where one
// does, and their stores write a quarter of each sector at a time.
//  - A loop over a vector's lanes (k from 0 to 3, the forward's `for (k < p.size)` reversed) that
//    adds to the adjoint of a buffer at `o + k` only, o unchanged by the loop, sums in a local
//    array over the loop, added to memory after it in one access (adjoint::add_lanes).
//  - A run of statements doing the same to every lane of a vector (`v[3] += y_bar[i + 3];` ...
//    `v[0] += y_bar[i];`, or `y_bar[i + c] = 0.0f`) becomes one call of adjoint::add_lanes,
//    copy_lanes or zero_lanes.
// The helpers (runtime/adjoint/cuda.h) check the address's alignment and move the lanes one at a
// time where it is not 16 bytes: no launch is refused for it. Only plain (not atomic) additions
// are touched: they are a thread's own.
void moveLanesTogether(ir::Function& d);

}  // namespace adjoint::transforms
