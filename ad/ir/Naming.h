// Every name Adjoint gives what it generates, in one place: the conventions users read in generated
// code and call from their own (x_bar, x_dot, f_grad, K_vjp_launch, f_train_step). Passes ask
// here instead of spelling suffixes; names of temporaries a pass makes for itself (x_offset,
// call_result) stay with that pass and go through NameSet::fresh.
#pragma once

#include <set>
#include <string>

namespace adjoint::ir::naming {

// Variables and parameters.
std::string adjointOf(const std::string& v);                   // x_bar: the adjoint of x
std::string tangentOf(const std::string& v);                   // x_dot: the tangent of x
std::string accumulatorOf(const std::string& p);               // p_bar_acc: a scalar parameter's adjoint summed locally
std::string updatedAdjointOf(const std::string& v);            // x_bar_new: an adjoint while x is overwritten
std::string tapeOf(const std::string& v);                      // x_tape: the values of x the reverse sweep pops
std::string loopCountOf(unsigned line);                        // k_L12: iterations of the loop on line 12
std::string savedBefore(const std::string& v, unsigned line);  // x_before_L12: x before line 12 overwrites it
// Kernels' launcher-provided parameters and locals.
inline const char* const kBlockSums = "block_sums";          // per-block partial sums of adjoints
inline const char* const kVirtualBlock = "virtual_block";    // the block a thread plays, blocks run in turn
inline const char* const kVirtualBlocks = "virtual_blocks";  // how many blocks run in turn
inline const char* const kFreshBars = "fresh_bars";          // a vjp kernel's template parameter
inline const char* const kVjpKernel = "vjp_kernel";          // its instantiation a launcher runs
inline const char* const kBarsArgument = "bars";             // the vjp launcher's adjoint::Bars
// A row's column picked by data, added after the warp's (a block's row: the block's) barrier.
inline const char* const kAddRowPick = "adjoint::add_row_pick";
inline const char* const kAddBlockRowPick = "adjoint::add_block_row_pick";
// Whether a name is one of the adjoint names above (x_bar, x_bar_acc, x_bar_new) / a tangent.
bool isAdjoint(const std::string& name);
bool isTangent(const std::string& name);
// Whether a user's name would clash with a name generated code declares next to it (x_bar, k_L3,
// block_sums): such names are renamed in the derivatives.
bool isReserved(const std::string& name);

// Functions.
enum class Derivative {
  Gradient,  // f_grad: reverse mode of an entry point returning a floating value
  Vjp,       // f_vjp: reverse mode of an entry point writing arrays, and of every kernel
  Jvp,       // f_jvp: forward mode
  Pullback,  // f_pullback: reverse mode of a helper, called by another derivative
};
// Kernels' vjps that a training step launches in its own way.
enum class Variant {
  Plain,
  WithValue,   // K_value_and_vjp: also writes what K writes (a loss kernel and its backward in one launch)
  FromOutput,  // K_vjp_from_output: reads a buffer K updates in place as K leaves it (analysis/OutputReads.h)
};
// f_grad, f_vjp, f_jvp, f_pullback; f_value_and_vjp, f_vjp_from_output for kernels' variants.
std::string derivativeOf(const std::string& f, Derivative kind, Variant variant = Variant::Plain);
// name_wrt_a_b: a derivative with respect to the parameters a and b only.
std::string withRespectTo(const std::string& name, const std::set<std::string>& wrt);
std::string launcherOf(const std::string& kernel);  // K_launch: launches K over a grid
std::string trainStepOf(const std::string& f);      // f_train_step
std::string branchProbeOf(const std::string& f);    // f_branch_probe: f reporting each branch taken

}  // namespace adjoint::ir::naming
