// Where the adjoints of a training step start. They are scratch: zeroed before the reverse sweep,
// and each pullback adds into them. A GEMM's pullback that is the first to touch the adjoint of
// its A or B writes it instead of adding (beta 0: the zeroing is left out, and cuBLAS does not read
// it), and one whose C_bar no later pullback reads leaves C_bar as it is instead of scaling it by
// beta (zeroing it, for the usual beta 0). Each saves a pass over a whole adjoint.
//
// A kernel's pullback is launched with adjoint::Bars::fresh (adjoint/cuda_host.h) where the step
// keeps that promise: the adjoints of the buffers the kernel only reads still hold the zero they
// started at (no pullback before touched them), and no pullback after, nor the update, reads the
// adjoints of the buffers it writes. Its vjp then stores the adjoints each element gets once
// instead of adding to a zero it loads, and leaves the seeds it consumed as they are.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ad/derive/HostSteps.h"

namespace adjoint::derive {

struct AdjointStarts {
  std::map<size_t, std::set<std::string>> startsAt;  // step -> buffers whose adjoints its pullback writes first
  std::set<size_t> cBarUnread;                       // GEMM steps whose C_bar nothing reads after their pullback
  std::set<size_t> fresh;                            // launches whose pullback takes adjoint::Bars::fresh

  bool starts(const std::string& buffer) const;
};

// `derivatives[k]`: the buffers whose derivatives step k's pullback takes (null: none for that
// argument; empty: the step has no pullback). Pullbacks run from the last step to the first. The
// loss's adjoint (the seed) never starts at a pullback; the trained parameters' adjoints are read
// by the update after them all. `deterministic`: the step equals its reference bitwise, so no
// GEMM's pullback writes an adjoint first (beta 0): cuBLAS may choose another algorithm for it
// than for the reference's addition into a zeroed adjoint (beta 1), and round differently.
AdjointStarts planAdjointStarts(const std::vector<Step>& steps,
                                const std::vector<std::vector<const BufferArg*>>& derivatives, const std::string& loss,
                                const std::vector<std::string>& trained, bool deterministic);

}  // namespace adjoint::derive
