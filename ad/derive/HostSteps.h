// The steps of host code over kernels, each a function from buffers to buffers: a kernel launch,
// a cuBLAS GEMM, or a device-to-device cudaMemset / cudaMemcpy. For each: the buffers it reads and writes, how many
// elements of each it touches, and the statements of its forward, pullback and tangent (see HostLevel.h for how they
// are put together).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ad/analysis/Extents.h"
#include "ad/ir/Function.h"

namespace adjoint::derive {

// One pointer argument of a step: which of the host function's buffers it points into, and where.
struct BufferArg {
  size_t position;  // among the step's arguments
  std::string buffer;
  ir::ExprPtr offset;  // null: the start of the buffer
  bool reads = false, writes = false;
  bool updates = false;  // adds into (or otherwise updates) what the buffer holds: x[i] += e, atomicAdd
  bool floating = true;  // has a derivative
};

enum class StepKind { Launch, Gemm, Memset, Memcpy };

struct Step {
  const ir::Stmt* stmt;
  StepKind kind;
  ir::ExprPtr stream;                    // where it runs
  const ir::Function* kernel = nullptr;  // a launch's kernel
  std::vector<BufferArg> buffers;
  std::map<std::string, std::string> before, after;  // buffer -> the version the step reads, leaves
  int loop = -1;                                     // the host loop it runs in (HostLevel's), or -1
  bool batched = false;                              // a strided batched GEMM
  ir::ExprPtr condition = nullptr;                   // where it runs (the ifs of host code around it); null: always
  // A training step's launch whose pullback (K_vjp_from_output) reads this buffer as the step
  // leaves it, so that no copy of what it held before is kept; empty: none.
  std::string readsAsLeft{};

  bool writes(const std::string& buffer) const;
  bool reads(const std::string& buffer) const;
};

// `arg`, argument `position` of statement s, as a pointer into one of host's buffers (xs + l * n).
BufferArg bufferArg(const ir::Stmt& s, const ir::Function& host, size_t position, const ir::ExprPtr& arg);

// The step of statement `s` of `host` (a launch, or a GEMM), or nothing for another statement.
// `locals`: the host function's declarations (a GEMM whose beta is a local 0 does not read C).
std::optional<Step> describeStep(const ir::Stmt& s, const ir::Function& host, const ir::Module& m,
                                 const ir::StmtList& locals);

// How many elements of b's buffer the step touches, counted from the start of the buffer. With a
// null extent and unboundedReads, the step reads at indices with no bound to tell (read from
// memory). A write with no bound is an error.
analysis::AccessExtent stepExtent(const Step& step, const ir::Function& host, const BufferArg& b);

// The step's own call with `args` (its arguments, buffers replaced by the versions it runs on);
// `status` receives its cudaError_t.
ir::StmtPtr forwardStatement(const Step& step, std::vector<ir::ExprPtr> args, const ir::ExprPtr& status);
// The step's pullback or tangent: `args` as above, `derivatives` the derivative arrays its
// derivative takes (a kernel's: of its differentiated parameters; otherwise of its buffers in
// order, `nullptr` for one without), `kernelDerivative` the name of the kernel's vjp or jvp;
// `told` what the pullback knows of its adjoints (a GEMM's adjoint::GemmAdjoints, a launch's
// adjoint::Bars), or null.
ir::StmtPtr derivativeStatement(const Step& step, const ir::Function& host, bool reverse, std::vector<ir::ExprPtr> args,
                                std::vector<ir::ExprPtr> derivatives, const std::string& kernelDerivative,
                                const ir::ExprPtr& status, const ir::ExprPtr& told = nullptr);

}  // namespace adjoint::derive
