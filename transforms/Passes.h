// IR → IR passes that prepare a function for differentiation. Each keeps the forward semantics
// exactly and throws ir::Diagnostic for input it cannot bring into the required shape.
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// Renames locals so that every declaration in the function has its own name (a second `i`
// becomes `i_2`), so that later stages may move declarations between scopes.
void uniqueLocalNames(ir::Function& f);

// Moves each call to a function of the module out of a larger expression into a declaration of
// its own (`double g_result = g(x);`), so that differentiation meets calls only as whole
// statements: `v = g(...)`, `T v = g(...)`, or `g(...);`. A call under `?:`, `&&` or `||` moves
// into an if that keeps its guard: `c ? g(x) : 0` becomes
// `double selected = 0; if (c) { selected = g(x); } else { selected = 0; }`.
void extractCalls(ir::Function& f, const ir::Module& m);

// A return inside a loop first becomes `result = e; returned = true; break;`, with
// `if (returned) return result;` after the loop. Then this brings break, continue and return into
// tail position (the statements after an if that may jump move into the branches that fall
// through, copied when both can; uniqueLocalNames then renames the copies' declarations): `if (c) { A; break; } B` becomes
// `if (c) { A; break; } else { B }`, a continue is dropped (what follows moves into the else),
// and a for loop that holds a break or continue, or is not a counted loop, becomes a while loop
// whose step runs on each path that continues. Afterwards a jump is always the last statement of its branch, so the reverse
// sweep can replay each iteration's path from the recorded branch decisions alone.
void structureJumps(ir::Function& f);

// Removes nested `{ ... }` blocks (names are unique after uniqueLocalNames).
void flattenBlocks(ir::Function& f);

}  // namespace adjoint::transforms

namespace adjoint::transforms {

// Cleans up generated code: consecutive accumulations into the same place
// (`x_bar += a; x_bar += b;`) become one (`x_bar += a + b;`), and `x += -e` becomes `x -= e`.
void simplify(ir::Function& f);

}  // namespace adjoint::transforms

namespace adjoint::transforms {

// Removes computations nothing reads: locals (and local arrays) that are assigned but never read,
// when computing them has no other effect, then loops and ifs left empty. The forward sweep of a
// gradient drops the `return`, so values only the result needed (and the reverse does not) go.
// `m` (optional) tells which pointer parameters its functions only read.
void removeDeadCode(ir::Function& f, const ir::Module* m = nullptr);

}  // namespace adjoint::transforms

namespace adjoint::transforms {

// Computes a pure call (Module::isPureCall: math, intrinsics, functions with rules) that several
// neighbouring statements evaluate with the same arguments once, into a named constant (`const double exp_t = std::exp(t * x[i]);`), when nothing in
// between changes what the call reads. Adjoint code repeats such calls across the partial
// derivatives of one forward statement.
void shareCommonCalls(ir::Function& f, const ir::Module& m);

}  // namespace adjoint::transforms

namespace adjoint::transforms {

// Kernels' forward modes do not redo the forward's effects on its outputs: stores (and atomicAdds)
// into pointer parameters the kernel `primal` writes but never reads are removed from `d`, since
// redoing an atomicAdd would add the loss twice. (Reverse modes leave every store into the
// caller's buffers out of their forward sweep, or undo it: derive/ReverseMode.cpp.)
void dropOutputStores(ir::Function& d, const ir::Function& primal);

// In the reverse of kernels and device functions, a store that zeroes an output's seed
// (`y_bar[i] = 0`, after the statements that read it) moves to the end of its block when nothing
// after it there touches y_bar, changes its index or leaves the block, and no barrier intervenes.
// On the H200 a store between loads held back the loads after it: gelu's vjp took 0.47 ms with
// the store in the middle and 0.09 ms with it last.
void sinkSeedZeroing(ir::Function& d);

// Decides how each adjoint the kernel `d` adds into memory is accumulated, and says so in a
// comment: a plain += where the index is injective over threads (and the adjoint array is used at
// that index alone); where every thread adds to the same address (a[0], a scalar parameter), a
// sum in a register, summed per block at the end of the kernel, the blocks' sums added in a fixed
// order by the last block to finish (launched without `block_sums`, an atomicAdd per block); where the
// address is the same across the warp at a time, one atomicAdd per warp; an atomicAdd
// otherwise, or a diagnostic when `deterministic`. Shared adjoint arrays are zeroed by the block
// first. In a device function every adjoint in memory is added with atomicAdd.
void parallelizeAdjoints(ir::Function& d, bool deterministic);
// The same for a kernel's forward mode, whose tangents are stored as the forward stores its
// values, except the atomicAdds the forward wrote: those into an address the same in every thread
// become a register sum added once per warp, as above; the others stay.
void parallelizeTangents(ir::Function& d);

// Makes a kernel with per-block sums (after parallelizeAdjoints), without shared memory or
// barriers, run the blocks of its one-dimensional launch in turn: its body, between the sums'
// declarations and their finish, goes into `for (virtual_block = blockIdx.x; virtual_block <
// virtual_blocks; virtual_block += gridDim.x)`, with blockIdx.x and gridDim.x read as
// virtual_block and virtual_blocks (a new parameter: the forward's grid). Fewer, longer-lived
// blocks leave fewer sums to add. Returns false, changing nothing, for kernels that do not qualify.
bool runBlocksInTurn(ir::Function& d);

}  // namespace adjoint::transforms

namespace adjoint::transforms {

// In kernels and device functions, a halving loop `for (int c = a; c > 0; c /= 2)` (or c >>= 1,
// or c >= 1) becomes the counted loop
// `for (int c_halving = 0; c_halving < adjoint::halvings(a); ++c_halving) { int c = a >> c_halving; ... }`,
// so that its reverse runs as a counted loop that recomputes c instead of taping it (device code
// has no tapes). These are the loops of tree and warp-shuffle reductions.
void countHalvingLoops(ir::Function& f);

}  // namespace adjoint::transforms
