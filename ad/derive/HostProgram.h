// Host code over kernels read as steps (see HostLevel.h): f's locals, its launches, GEMMs,
// memsets and copies in order, each with the counted loop and the ifs around it, the host
// functions it calls inlined. Anything else host code may do is a diagnostic.
#pragma once

#include <string>
#include <vector>

#include "ad/analysis/Loops.h"
#include "ad/derive/HostSteps.h"
#include "ad/ir/Names.h"

namespace adjoint::derive {

// A counted loop of host code over steps (layers): for (int l = a; l < b; ++l).
struct HostLoop {
  const ir::Stmt* stmt;
  analysis::CountedLoop header;
  ir::StmtList locals;        // declared in its body, in order
  size_t begin = 0, end = 0;  // its steps: [begin, end)
  std::string trips;          // the local holding its number of iterations
};

struct HostProgram {
  ir::StmtList locals;   // f's own: sizes, launch configurations, GEMM scalars
  ir::StmtList inlined;  // the statements of the host functions f calls, as f's (steps point into them)
  std::vector<Step> steps;
  std::vector<HostLoop> loops;
  ir::ExprPtr stream;  // where the launches and copies run (a GEMM runs on its handle's)
};

// f read as steps; the locals of the functions it inlines get names of their own from `names`.
HostProgram readHostProgram(const ir::Function& f, const ir::Module& m, ir::NameSet& names);

}  // namespace adjoint::derive
