// Functions and modules of the IR: what the frontend produces and every later stage consumes.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ad/ir/Stmt.h"

namespace adjoint::ir {

// What a parameter of a derivative is: the primal function's own, an adjoint or tangent of one of
// them, the adjoint of the primal's result (pullbacks), storage the kernel launcher provides, or
// what a training step's optimizer takes.
// A training step's optimizer adds its state (per trained buffer) and hyperparameters.
enum class Role {
  Primal,
  Adjoint,
  Tangent,
  ResultAdjoint,
  BlockSums,
  VirtualBlocks,
  ColumnParts,
  SegmentKeys,
  SegmentValues,
  SegmentRows,
  TapeScratch,
  OptimizerState,
  Hyperparameter
};

struct Param {
  std::string name;
  Type type;
  Role role = Role::Primal;
  std::string of{};                // Adjoint, Tangent: the primal parameter it belongs to
  bool nondifferentiable = false;  // marked by the user; never gets an adjoint
  bool unused = false;  // a derivative's parameter its body does not read: [[maybe_unused]] where it is defined
};

// The IR's name for a function the user names `requested` (as --fn does): the name without its
// namespaces, a template's arguments joined by '_' (`ns::dot<double, 3>` is `dot_double_3`).
std::string functionName(const std::string& requested);
// `spelled` as an identifier: each run of characters other than letters, digits and '_' one '_',
// none at either end unless `spelled` ends in '_' (`Chain::energy` is `Chain_energy`).
std::string identifier(const std::string& spelled);

// Whether the kernel launcher provides the parameter (the caller does not pass it).
bool isLauncherProvided(const Param& p);

// What a kernel's plain += of adjoints asks of its launch's blocks, checked by the launcher: whole
// warps (a row per warp of the grid, (blockIdx.x * blockDim.x + threadIdx.x) / 32), and at most
// maxThreads threads (a row's columns stepped from threadIdx.x by that literal, or a thread's
// index blockIdx.x * maxThreads + threadIdx.x; 0: any).
struct BlockShape {
  bool wholeWarps = false;
  unsigned maxThreads = 0;
  // What this and `other` ask together.
  void add(const BlockShape& other) {
    wholeWarps |= other.wholeWarps;
    if (other.maxThreads && (!maxThreads || other.maxThreads < maxThreads)) maxThreads = other.maxThreads;
  }
};

struct Function {
  std::string name;
  std::string spelling;  // how C++ code calls the user's function: "ns::g", "dot<double, 3>"
  // A const member function's name in its struct ("energy" for Chain_energy): C++ code calls it
  // on its first parameter, the object (self.energy(x)).
  std::string memberName;
  Type returnType;
  std::vector<Param> params;
  StmtList body;
  SourceLoc loc;
  std::string runtimeHeader;       // "adjoint/rules.h": a helper of Adjoint's runtime, not the user's
  bool internal = false;           // emitted with internal linkage (helpers of the generated TU)
  bool nondifferentiable = false;  // marked by the user: calls to it are constants
  bool kernel = false;             // a CUDA __global__ function
  bool device = false;             // a CUDA __device__ function (also __host__ when `host`)
  bool host = true;
  std::string doc;     // printed above the definition
  std::string primal;  // for a derivative: the function it differentiates
  // How many addresses a kernel's adjoints are summed per block for (adjoint::BlockSums slots);
  // see transforms/ParallelAdjoints.cpp.
  unsigned blockSumSlots = 0;
  // Adjoints a kernel adds at the thread's index modulo a width: each thread's in its slot of
  // `parts` (a parameter the launcher provides), the column sums added into `target` after.
  struct ColumnSum {
    std::string parts, target;
    ExprPtr columns;  // over the kernel's scalar parameters
  };
  std::vector<ColumnSum> columnSums;
  // Adjoints a kernel adds at indices read from data, under --deterministic: each run of such an
  // addition records its (index, value) pair in its slot of `keys` and `values` (parameters the
  // launcher provides, `slots` of each), which the launcher sorts by index and adds into `target`
  // in a fixed order.
  // Row segments (a row of the target picked per row of elements the threads own: an
  // embedding's): `width` the rows' width (the launcher's local `widthName`, at least 1), the
  // row's key in `rowKeys`, `keys` and `values` one per element of `rows` rows, as many rows as
  // the runs fill (the launcher's `slots`: rows * width).
  struct Segments {
    std::string keys, values, slots, target;
    ExprPtr perThread;  // slots per thread, over the kernel's scalar parameters and blockDim.x, gridDim.x
    ExprPtr width{};    // row segments only, over the kernel's scalar parameters
    std::string widthName{}, rowKeys{}, rows{};
  };
  std::vector<Segments> segments;
  // Values a kernel's reverse sweep needs of what its loops overwrite: each run of the forward's
  // store keeps its value in its slot of `name` (a parameter the launcher provides), read back by
  // the same run of the reverse.
  struct TapeScratch {
    std::string name;
    ExprPtr perThread;  // slots per thread, over the kernel's scalar parameters and blockDim.x, gridDim.x
  };
  std::vector<TapeScratch> tapeScratch;
  // The width C of the columns at which a kernel's thread adds adjoints (index modulo C), when it
  // sums them in registers: its launcher runs blocks in turn only as many at a time as keep each
  // thread on one column (adjoint::resident_grid's `columns`). Null: none.
  ExprPtr columnWidth;
  // Adjoints a kernel sums per block in shared memory at columns below a width C (a layernorm's
  // weight and bias, summed over a block's rows): C, over the kernel's scalar parameters, and the
  // arrays' count and element type. Its launcher gives it that much dynamic shared memory.
  ExprPtr blockColumnWidth;
  unsigned blockColumnArrays = 0;
  Type blockColumnElement;
  // The statements before and after the kernel's own work: register sums' declarations and their
  // finish, which blocks in turn leave outside its loop.
  unsigned sumsBefore = 0, sumsAfter = 0;
  // A kernel whose plain += of adjoints relies on threads differing in threadIdx.x alone.
  bool needsOneDimensionalLaunch = false;
  BlockShape plainAddBlocks;  // what its plain += of adjoints asks of the launch's blocks
  // Sizes its deterministic adjoints take to be at least 1 (an element no other thread adds to,
  // made of the digits of the thread's index: analysis/MixedRadix.h).
  std::set<std::string> positiveSizes;
  // A function whose cooperative groups were written as threadIdx.x arithmetic: its blocks'
  // threads must differ in threadIdx.x alone (see ad/frontend/CooperativeGroups.cpp).
  bool oneDimensionalBlocks = false;
  // The adjoints of inputs a kernel's vjp stores (=) and the seeds it leaves as they came in when
  // its caller passes adjoint::Bars::fresh (transforms/FreshBars.h). A kernel with either is a
  // template over `bool fresh_bars`, instantiated for both.
  std::set<std::string> storedWhenFresh, seedsKeptWhenFresh;
  bool takesFreshBars() const { return !storedWhenFresh.empty() || !seedsKeptWhenFresh.empty(); }
  // A kernel that runs the forward's blocks in turn (transforms::runBlocksInTurn).
  bool blocksInTurn = false;
  // A kernel keeping this many arrays in the dynamic shared memory, each as large as the
  // forward's (transforms/DynamicShared.h): its launcher launches with that many times the bytes.
  unsigned dynamicSharedParts = 0;
  // A derivative of host code over kernels (f_vjp, f_jvp; f_train_step when also `trainStep`).
  bool hostLevel = false;
  bool trainStep = false;

  const Param* param(const std::string& n) const;
  // The adjoint (or tangent) parameter of the primal parameter `primal`, if the function has one.
  const Param* derivativeOf(const std::string& primal, Role role) const;
  bool returnsFloating() const { return returnType.isFloating(); }
};

// A derivative rule for calls of one function (see ad/rules/Rules.h).
struct Rule {
  std::vector<std::string> params;  // the rule functions' parameter names
  std::vector<ExprPtr> partials;    // partials[i]: d f / d params[i] over params; null: none given
  // The parameter a rule names the call's result by (y in tanh_dx(x, y) = 1 - y * y: one more
  // parameter than the function has, the last); empty when the rules take the arguments alone.
  std::string result;
  // Whether partial i reads the call's result.
  bool partialReadsResult(size_t i) const;
  // A linear rule (a warp shuffle): f is linear in its argument `linearArgument` (-1: none), and
  // `pullback`, called with f's arguments and the adjoint of f's result in that argument's place,
  // is what the argument's adjoint receives. Such a function moves values between threads: it is
  // not pure, and generated code calls it only where the forward did.
  int linearArgument = -1;
  std::string pullback;
  bool isLinear() const { return linearArgument >= 0; }
};

struct Module {
  std::string sourcePath;
  std::vector<std::string> sourceLines;  // the forward source, for comments naming forward lines
  std::vector<Function> functions;
  std::map<std::string, Rule> rules;                     // by callee as the IR spells it: "std::sin", "my_erf"
  std::vector<Function> externals;                       // functions called through rules only: declared, not defined
  std::vector<std::shared_ptr<const StructInfo>> enums;  // the forward program's enumerations it uses
  std::vector<std::string> roots;                        // the requested functions' names, in order
  std::vector<std::string> dependencies;                 // the files the frontend read: the source and its headers

  const Function* find(const std::string& name) const;
  const Rule* rule(const std::string& callee) const;
  // Whether `call` calls a function with a derivative rule (the math library, CUDA's intrinsics, a
  // user's rule) on values alone: such a function computes from its arguments only (what a rule
  // states), so a call may be evaluated again, shared, or dropped when nothing reads its value.
  bool isPureCall(const Expr& call) const;
  // The forward line `line` (1-based), trimmed; empty when unknown.
  std::string sourceLine(unsigned line) const;
};

}  // namespace adjoint::ir
