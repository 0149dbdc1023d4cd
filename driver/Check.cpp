#include "driver/Check.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "RuntimeHeaders.inc"
#include "ad/derive/HostLevel.h"
#include "ad/derive/Requests.h"
#include "ad/frontend/Frontend.h"
#include "ad/ir/Naming.h"
#include "ad/ir/Printer.h"
#include "transforms/BranchProbes.h"

namespace adjoint::driver {

namespace {

// f_grad (f_vjp) and f_jvp; with --params, f_vjp and f_train_step (in `jvp`'s place, named .train).
struct Generated {
  PipelineResult grad, jvp;
  bool train = false;
};

std::optional<Generated> generate(const CheckOptions& o, const std::string& stem) {
  std::optional<PipelineResult> grad, second;
  PipelineOptions p = o.pipeline;
  p.emit.command = "adjoint check";
  bool train = p.train.has_value();
  runWithLargeStack([&] {
    p.mode = derive::Mode::Reverse;
    p.train.reset();
    p.emit.headerName = stem + ".grad.h";
    grad = runPipeline(p);
    if (!grad) return;
    p.mode = train ? derive::Mode::Reverse : derive::Mode::Forward;
    p.train = o.pipeline.train;
    p.emit.headerName = stem + (train ? ".train.h" : ".jvp.h");
    second = runPipeline(p);
  });
  if (!grad || !second) return std::nullopt;
  return Generated{*grad, *second, train};
}

// f as a function pointer: its name, or for a member function a lambda calling it on its object.
std::string callable(const ir::Function& f) {
  if (f.memberName.empty()) return f.spelling;
  std::string params, args;
  for (size_t i = 0; i < f.params.size(); ++i) {
    params += (i ? ", " : "") + f.params[i].type.paramSpelling() + " " + f.params[i].name;
    if (i > 1) args += ", ";
    if (i) args += f.params[i].name;
  }
  return "+[](" + params + ") { return " + f.params.front().name + "." + f.memberName + "(" + args + "); }";
}

struct Range {
  double lo, hi;
};

// The ranges of --range: a default ("lo,hi") and per parameter ("name=lo,hi").
struct Ranges {
  std::optional<Range> all;
  std::map<std::string, Range> byName;
};

std::optional<Ranges> parseRanges(const std::vector<std::string>& specs, const ir::Function& f) {
  Ranges out;
  for (const std::string& spec : specs) {
    size_t eq = spec.find('='), comma = spec.find(',', eq == std::string::npos ? 0 : eq);
    std::string name = eq == std::string::npos ? "" : spec.substr(0, eq);
    size_t start = eq == std::string::npos ? 0 : eq + 1;
    char* end = nullptr;
    Range r{};
    bool ok = comma != std::string::npos;
    if (ok) {
      std::string lo = spec.substr(start, comma - start), hi = spec.substr(comma + 1);
      r.lo = std::strtod(lo.c_str(), &end);
      ok = !lo.empty() && *end == 0;
      r.hi = std::strtod(hi.c_str(), &end);
      ok = ok && !hi.empty() && *end == 0 && r.lo < r.hi;
    }
    if (!ok || (!name.empty() && !f.param(name))) {
      std::cerr << "error: --range '" << spec << "': "
                << (ok ? "'" + name + "' is not a parameter of '" + f.name + "'"
                       : "expected lo,hi or name=lo,hi with lo < hi")
                << "\n";
      return std::nullopt;
    }
    if (name.empty())
      out.all = r;
    else
      out.byName[name] = r;
  }
  return out;
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

// Branch probes of f (see transforms/BranchProbes.h), recording into adjoint_sides.
std::string probeDefinitions(const transforms::BranchProbes& probes) {
  std::ostringstream h;
  h << "// Which sides of its branches f takes: the checks run at inputs that take each.\n"
    << "static bool adjoint_sides[" << probes.branches.size() << "][2];\n"
    << "static const char* const adjoint_branches[] = {";
  for (size_t k = 0; k < probes.branches.size(); ++k) h << (k ? ", " : "") << quoted(probes.branches[k]);
  h << "};\n"
    << "static bool adjoint_branch(int k, bool taken) {\n  adjoint_sides[k][taken] = true;\n  return taken;\n}\n";
  for (const ir::Function& p : probes.functions) h << ir::printSignature(p) << ";\n";
  for (const ir::Function& p : probes.functions) h << ir::print(p) << "\n";
  return h.str();
}

// Whether a function of `m` (f and what it calls) computes in float: then finite differences in
// double compare against float rounding, and the checks take float's step and tolerances.
bool computesInFloat(const ir::Module& m) {
  bool found = false;
  for (const ir::Function& f : m.functions) {
    ir::walkExprs(f.body, [&](const ir::Expr& e) { found |= e.type.scalar == ir::Scalar::Float; });
    ir::walk(f.body,
             [&](const ir::Stmt& s) { found |= s.kind == ir::StmtKind::Decl && s.type.scalar == ir::Scalar::Float; });
  }
  return found;
}

// The source under test, included by a harness: its own main, if any, renamed out of the way.
std::string includeForward(const std::string& source) {
  return "#define main adjoint_forward_main  // the harness has its own\n#include \"" + source + "\"\n#undef main\n";
}

// adjoint::StructFields<S> for each struct f takes (not std::pair or std::tuple, which verify.h
// knows): how the verifier reaches the fields where the test has no adjoint_fields of its own.
std::string structFields(const ir::Function& f) {
  std::set<std::string> done;
  std::string out;
  for (const ir::Param& p : f.params) {
    const ir::StructInfo* s = p.type.isStruct() ? p.type.record.get() : nullptr;
    if (!s || !s->header.empty() || !done.insert(s->name).second) continue;
    std::string fields;
    for (const auto& [name, type] : s->fields) fields += (fields.empty() ? "s." : ", s.") + name;
    out += "template <>\nstruct adjoint::StructFields<" + s->name + "> {\n  static auto of(" + s->name +
           "& s) { return std::tie(" + fields + "); }\n};\n";
  }
  return out;
}

// The harness: verify<mask>(name, f, f_grad, f_jvp, options) with the options of the command, at
// inputs that take each side of every branch (as far as 64 draws find them).
std::string harness(const CheckOptions& o, const Generated& g, const std::string& stem, const std::string& source,
                    const Ranges& ranges) {
  const ir::Function& f = *g.grad.prepared.find(g.grad.function);
  std::set<std::string> wrt(o.pipeline.wrt.begin(), o.pipeline.wrt.end());
  unsigned long long mask = 0;
  std::string names;
  for (size_t i = 0; i < f.params.size(); ++i) names += (i ? ", \"" : "\"") + f.params[i].name + "\"";
  for (const ir::Param* p : derive::differentiatedParams(f, wrt)) mask |= 1ull << (p - f.params.data());
  std::string ints;
  for (size_t i = 0; i < o.intValues.size(); ++i) ints += (i ? ", " : "") + std::to_string(o.intValues[i]);
  std::string paramRanges;
  for (size_t i = 0; i < f.params.size(); ++i) {
    auto it = ranges.byName.find(f.params[i].name);
    paramRanges += (i ? ", {" : "{") +
                   (it == ranges.byName.end() ? std::string("1, 0")
                                              : std::to_string(it->second.lo) + ", " + std::to_string(it->second.hi)) +
                   "}";
  }
  transforms::BranchProbes probes = transforms::branchProbes(g.grad.prepared, f.name, "adjoint_branch");
  std::string maskLiteral = std::to_string(mask) + "ull";
  std::ostringstream h;
  h << "// Verification harness written by `adjoint check` for " << f.name << " in " << source << ".\n"
    << "// Usage: ./check [seed]\n"
    << "#include <cstdio>\n#include <string>\n#include <vector>\n\n"
    << "#include \"adjoint/verify.h\"\n#include \"" << stem << ".grad.h\"\n#include \"" << stem << ".jvp.h\"\n"
    << includeForward(source) << "\n"
    << structFields(f);
  if (!probes.branches.empty()) h << probeDefinitions(probes) << "\n";
  h << "int main(int argc, char** argv) {\n"
    << "  adjoint::VerifyOptions options;\n"
    << "  options.seed = argc > 1 ? static_cast<unsigned>(std::stoul(argv[1])) : " << o.seed << "u;\n"
    << "  options.ints = {" << ints << "};\n"
    << "  options.length = " << o.arrayLength << ";\n";
  if (ranges.all) h << "  options.lo = " << ranges.all->lo << ";\n  options.hi = " << ranges.all->hi << ";\n";
  if (computesInFloat(g.grad.prepared))
    h << "  // " << f.name << " computes in float\n"
      << "  options.step = options.floatStep;\n  options.fdTolerance = options.floatFdTolerance;\n"
      << "  options.dotTolerance = options.floatDotTolerance;\n";
  if (!ranges.byName.empty()) h << "  options.ranges = {" << paramRanges << "};\n";
  h << "  options.names = {" << names << "};\n"
    << "  options.table = true;\n";
  if (probes.branches.empty()) {
    h << "  std::vector<unsigned> seeds{options.seed};\n";
  } else {
    h << "  std::vector<unsigned> seeds = adjoint::seedsCoveringBranches<" << maskLiteral << ">("
      << probes.functions.front().name << ", options, adjoint_sides, " << probes.branches.size() << ");\n";
  }
  h << "  int failures = 0;\n"
    << "  for (unsigned seed : seeds) {\n"
    << "    options.seed = seed;\n"
    << "    std::printf(\"checking " << f.name << " (seed %u)\\n\", seed);\n"
    << "    failures += adjoint::verify<" << maskLiteral << ">(\"" << f.name << "\", " << callable(f) << ", "
    << g.grad.derivatives.front().name << ", " << g.jvp.derivatives.front().name << ", options);\n"
    << "  }\n";
  if (!probes.branches.empty())
    h << "  std::printf(\"branches (sides taken at the inputs checked):\\n\");\n"
      << "  for (size_t k = 0; k < " << probes.branches.size() << "; ++k)\n"
      << "    std::printf(\"  %-50s true: %-3s false: %-3s%s\\n\", adjoint_branches[k], adjoint_sides[k][1] ? \"yes\" "
         ": \"no\",\n"
      << "                adjoint_sides[k][0] ? \"yes\" : \"no\",\n"
      << "                adjoint_sides[k][0] && adjoint_sides[k][1] ? \"\" : \"  (one side never taken in the inputs "
         "drawn: widen --range)\");\n";
  h << "  std::printf(failures ? \"%d check(s) FAILED\\n\" : \"all checks passed\\n\", failures);\n"
    << "  return failures ? 1 : 0;\n}\n";
  return h.str();
}

// The arguments of derivative d of f after its launch configuration: f's as named, each
// derivative the checker `check` holds.
std::string derivativeArguments(const ir::Function& f, const ir::Function& d, const std::string& check) {
  std::string args;
  for (const ir::Param& p : d.params) {
    if (ir::isLauncherProvided(p)) continue;
    const ir::Param* primal = p.role == ir::Role::Adjoint || p.role == ir::Role::Tangent ? f.param(p.of) : nullptr;
    if (!primal)
      args += ", " + p.name;
    else if (primal->type.pointer)
      args += ", " + check + ".derivative(" + p.of + ")";
    else
      args += ", " + check + (p.role == ir::Role::Adjoint ? ".scalarBar(" : ".scalarDot(") + p.of + ")";
  }
  return args;
}

// The values an array parameter is drawn from: --range's, else [-1, 1] (integers: valid indices
// below `length`, the range's when given).
std::string valueRange(const ir::Param& p, const Ranges& ranges, const std::string& length) {
  auto own = ranges.byName.find(p.name);
  std::optional<Range> r = own != ranges.byName.end() ? own->second : ranges.all;
  if (p.type.isFloating()) {
    Range f = r.value_or(Range{-1, 1});
    return std::to_string(f.lo) + ", " + std::to_string(f.hi);
  }
  return own != ranges.byName.end() ? std::to_string(r->lo) + ", " + std::to_string(r->hi - 1)
                                    : "0, " + length + " - 1";
}

// A host function's buffer p: as many elements as its steps touch (or --array-length).
std::string bufferLength(const ir::Param& p, const derive::HostBufferSizes& sizes, const CheckOptions& o) {
  for (const auto& [buffer, elements] : sizes.elements)
    if (buffer == p.name) return "static_cast<size_t>(" + ir::print(*elements) + ")";
  return std::to_string(o.arrayLength);
}

// A scalar parameter's value: the next of --int-values (else the array length), 0.7 for floats;
// an enumeration's converted to it.
std::string scalarValue(const ir::Param& p, const CheckOptions& o, size_t& ints) {
  if (p.type.isFloating()) return "0.7";
  std::string value = std::to_string(ints < o.intValues.size() ? o.intValues[ints++] : long(o.arrayLength));
  return p.type.record ? "static_cast<" + p.type.scalarSpelling() + ">(" + value + ")" : value;
}

// A handle or stream parameter of host code: a cuBLAS handle created (and destroyed in
// `release`), anything else value-initialized (the default stream). False for other parameters.
bool declareHandle(const ir::Param& p, std::ostream& handles, std::ostream& release) {
  if (p.type.spelled == "cublasHandle_t") {
    handles << "  cublasHandle_t " << p.name << ";\n  cublasCreate(&" << p.name << ");\n";
    release << "  cublasDestroy(" << p.name << ");\n";
    return true;
  }
  if (p.type.scalar != ir::Scalar::Opaque) return false;
  handles << "  " << p.type.spelled << " " << p.name << "{};\n";
  return true;
}

// The harness of a host function over kernels and cuBLAS: its integer scalars first (--int-values,
// else --array-length), f's own locals, then each buffer as long as f's steps touch (the same
// extents f_vjp sizes its copies by), a cuBLAS handle and the default stream; f, f_vjp and f_jvp
// around adjoint::KernelCheck. `forward` is the file that defines f.
std::string hostHarness(const CheckOptions& o, const Generated& g, const std::string& stem, const std::string& forward,
                        const Ranges& ranges) {
  const ir::Module& m = g.grad.prepared;
  const ir::Function& f = *m.find(g.grad.function);
  const ir::Function& vjp = g.grad.derivatives.front();
  const ir::Function& jvp = g.jvp.derivatives.front();
  derive::HostBufferSizes sizes = derive::hostBufferSizes(m, f);
  std::ostringstream scalars, arrays, handles, release;
  std::string args;
  size_t ints = 0;
  for (const ir::Param& p : f.params) {
    args += (args.empty() ? "" : ", ") + p.name;
    std::string t = p.type.scalarSpelling(), diff = vjp.derivativeOf(p.name, ir::Role::Adjoint) ? "true" : "false";
    if (declareHandle(p, handles, release)) continue;
    if (p.type.pointer) {
      std::string length = bufferLength(p, sizes, o);
      arrays << "  " << t << "* " << p.name << " = adjoint_check.array<" << t << ">(\"" << p.name << "\", " << length
             << ", " << diff << ", " << valueRange(p, ranges, length) << ");\n";
    } else {
      scalars << "  " << t << "& " << p.name << " = adjoint_check.scalar<" << t << ">(\"" << p.name << "\", "
              << scalarValue(p, o, ints) << ", " << diff << ");\n";
    }
  }
  std::ostringstream h;
  h << "// Verification harness written by `adjoint check` for the host function " << f.name << ".\n"
    << "// Usage: ./check [seed]\n#include <cstdio>\n#include <cstdlib>\n\n"
    << "#include \"adjoint/cublas.h\"\n#include \"adjoint/cuda.h\"\n#include \"adjoint/verify_kernel.h\"\n"
    << includeForward(forward) << "#include \"" << stem << ".grad.h\"\n#include \"" << stem << ".jvp.h\"\n\n"
    << "static void adjoint_check_status(cudaError_t status) {\n  if (status == cudaSuccess) return;\n"
    << "  std::fprintf(stderr, \"failed: %s\\n\", cudaGetErrorString(status));\n  std::exit(2);\n}\n\n"
    << "int main(int argc, char** argv) {\n"
    << "  adjoint::KernelCheck adjoint_check(argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : " << o.seed
    << "u);\n"
    << scalars.str() << "  // " << f.name << "'s locals, which its buffers' sizes are written in\n"
    << ir::print(sizes.locals, 1) << arrays.str() << handles.str()
    << "  bool ok = adjoint_check.run([&] { ::" << f.spelling << "(" << args
    << "); adjoint_check_status(cudaGetLastError()); },\n"
    << "                      [&] { adjoint_check_status(" << vjp.name << "("
    << derivativeArguments(f, vjp, "adjoint_check").substr(2) << ")); },\n"
    << "                      [&] { adjoint_check_status(" << jvp.name << "("
    << derivativeArguments(f, jvp, "adjoint_check").substr(2) << ")); });\n"
    << release.str() << "  std::printf(ok ? \"all checks passed\\n\" : \"checks FAILED\\n\");\n"
    << "  return ok ? 0 : 1;\n}\n";
  return h.str();
}

// The values a training step's check gives its optimizer's hyperparameters.
std::string hyperparameter(const std::string& name, const std::string& optimizer) {
  if (name == "lr") return optimizer == "adamw" ? "0.01" : "0.05";
  if (name == "momentum" || name == "beta1") return "0.9";
  if (name == "beta2") return "0.999";
  if (name == "eps") return "1e-8";
  if (name == "weight_decay") return "0.01";
  return "3";  // step
}

// The harness of a training step: every buffer twice with the same random values, one training
// step on one copy; on the other the unfused reference: f_vjp seeded with 1 on the loss, f itself
// for what it leaves in the buffers it writes, and the optimizer's update on the host
// (runtime/adjoint/verify_train.h); then every floating buffer of the two compared.
std::string trainHarness(const CheckOptions& o, const Generated& g, const std::string& stem, const std::string& forward,
                         const Ranges& ranges) {
  const ir::Module& m = g.grad.prepared;
  const ir::Function& f = *m.find(g.grad.function);
  const ir::Function& vjp = g.grad.derivatives.front();
  const ir::Function& step = g.jvp.derivatives.front();
  const derive::TrainStep& t = *o.pipeline.train;
  derive::HostBufferSizes sizes = derive::hostBufferSizes(m, f);
  std::string T = f.param(t.params.front())->type.scalarSpelling();
  std::ostringstream scalars, buffers, handles, release, reference, compare;
  std::string stepArgs, referenceArgs, vjpArgs;
  size_t ints = 0;
  for (const ir::Param& p : f.params) {
    std::string e = p.type.scalarSpelling(), stepArg = p.name, referenceArg = p.name;
    if (declareHandle(p, handles, release)) {
    } else if (p.type.pointer) {
      std::string length = bufferLength(p, sizes, o);
      auto own = ranges.byName.find(p.name);
      std::string range = own != ranges.byName.end()
                              ? std::to_string(own->second.lo) + ", " + std::to_string(own->second.hi)
                          : p.type.isFloating() ? "-1, 1"
                                                : "0, double(" + length + ")";
      buffers << "  adjoint::TwinBuffer<" << e << "> " << p.name << "(" << length << ", " << range << ", rng);\n";
      stepArg = p.name + ".step";
      referenceArg = p.name + ".reference";
      if (p.type.isFloating()) {
        reference << "  adjoint::DeviceArray<" << e << "> " << p.name << "_bar(" << p.name << ".host.size());\n";
        vjpArgs += ", " + p.name + "_bar.data";
        bool trained = std::count(t.params.begin(), t.params.end(), p.name) > 0;
        compare << "  ok &= adjoint::same_values(\"" << p.name << "\", adjoint::fetch(" << p.name << ".step, " << p.name
                << ".host.size()), "
                << (trained ? p.name + "_expected"
                            : "adjoint::fetch(" + p.name + ".reference, " + p.name + ".host.size())")
                << ", tolerance);\n";
      }
    } else {
      scalars << "  " << e << " " << p.name << " = " << scalarValue(p, o, ints) << ";\n";
    }
    stepArgs += (stepArgs.empty() ? "" : ", ") + stepArg;
    referenceArgs += (referenceArgs.empty() ? "" : ", ") + referenceArg;
  }
  // The optimizer's state (random, as after some steps) and hyperparameters.
  std::ostringstream state, updates;
  for (const ir::Param& p : step.params) {
    if (p.role == ir::Role::OptimizerState) {
      state << "  adjoint::TwinBuffer<" << T << "> " << p.name << "(" << p.of << ".host.size(), "
            << (p.name == p.of + "_v" ? "0" : "-0.1") << ", 0.1, rng);\n";
      stepArgs += ", " + p.name + ".step";
    } else if (p.role == ir::Role::Hyperparameter) {
      state << "  const " << (p.name == "step" ? std::string("int") : T) << " " << p.name << " = "
            << hyperparameter(p.name, t.optimizer) << ";\n";
      stepArgs += ", " + p.name;
    }
  }
  for (const std::string& p : t.params) {
    std::string g = "adjoint::fetch(" + p + "_bar.data, " + p + ".host.size())";
    updates << "  std::vector<" << T << "> " << p << "_expected = " << p << ".host;\n  adjoint::" << t.optimizer
            << "_reference(" << p << "_expected, " << g
            << (t.optimizer == "sgd"        ? ", lr"
                : t.optimizer == "momentum" ? ", " + p + "_velocity.host, lr, momentum"
                                            : ", " + p + "_m.host, " + p +
                                                  "_v.host, lr, beta1, beta2, eps, "
                                                  "weight_decay, step")
            << ");\n";
  }
  const std::string& loss = t.loss;
  std::ostringstream h;
  h << "// Training-step check written by `adjoint check` for " << f.name << " (" << t.optimizer << ").\n"
    << "#include <cstdio>\n#include <random>\n\n"
    << "#include \"adjoint/cublas.h\"\n#include \"adjoint/cuda.h\"\n#include \"adjoint/verify_train.h\"\n"
    << includeForward(forward) << "#include \"" << stem << ".grad.h\"\n#include \"" << stem << ".train.h\"\n\n"
    << "int main(int argc, char** argv) {\n"
    << "  std::mt19937 rng(argc > 1 ? static_cast<unsigned>(std::stoul(argv[1])) : " << o.seed << "u);\n"
    << "  std::printf(\"training-step check: seed %u\\n\", argc > 1 ? static_cast<unsigned>(std::stoul(argv[1])) : "
    << o.seed << "u);\n"
    << scalars.str() << "  // " << f.name << "'s locals, which its buffers' sizes are written in\n"
    << ir::print(sizes.locals, 1) << buffers.str() << handles.str() << state.str()
    << "  const double tolerance = sizeof(" << T << ") == 4 ? 2e-5 : 1e-11;\n"
    << "  // One training step.\n"
    << "  if (" << step.name << "(" << stepArgs << ") != cudaSuccess) return 2;\n"
    << "  // The reference: f_vjp seeded with 1 on the loss, then " << f.name
    << " itself, then the update on the host.\n"
    << reference.str() << "  cudaMemset(" << loss << ".reference, 0, " << loss << ".host.size() * sizeof(" << T
    << "));\n"
    << "  {\n    std::vector<" << T << "> one(" << loss << ".host.size(), 1);\n    cudaMemcpy(" << loss
    << "_bar.data, one.data(), one.size() * sizeof(one[0]), cudaMemcpyHostToDevice);\n  }\n"
    << "  if (" << vjp.name << "(" << referenceArgs << vjpArgs << ") != cudaSuccess) return 2;\n"
    << "  ::" << f.spelling << "(" << referenceArgs << ");\n"
    << updates.str() << "  bool ok = true;\n"
    << compare.str() << release.str()
    << "  std::printf(ok ? \"the training step equals the reference\\n\" : \"checks FAILED\\n\");\n"
    << "  return ok ? 0 : 1;\n}\n";
  return h.str();
}

// The harness of a kernel: its arrays (all --array-length long; integer arrays hold valid indices
// below that), its integer scalars (--int-values, else the array length), float scalars 0.7;
// the forward, the vjp launcher and the jvp launcher around adjoint::KernelCheck.
std::string kernelHarness(const CheckOptions& o, const Generated& g, const std::string& stem, const std::string& source,
                          const Ranges& ranges) {
  const ir::Function& f = *g.grad.prepared.find(g.grad.function);
  const ir::Function& vjp = g.grad.derivatives.front();
  const ir::Function& jvp = g.jvp.derivatives.front();
  std::ostringstream decls, forward;
  size_t ints = 0;
  for (const ir::Param& p : f.params) {
    bool differentiated = p.type.isFloating() &&
                          (vjp.derivativeOf(p.name, ir::Role::Adjoint) || jvp.derivativeOf(p.name, ir::Role::Tangent));
    std::string t = p.type.scalarSpelling(), diff = differentiated ? "true" : "false";
    if (p.type.pointer) {
      auto own = ranges.byName.find(p.name);
      Range r = own != ranges.byName.end() ? own->second : ranges.all.value_or(Range{-1, 1});
      std::string range = p.type.isFloating() ? std::to_string(r.lo) + ", " + std::to_string(r.hi)
                                              : "0, " + std::to_string(o.arrayLength);
      decls << "  " << t << "* " << p.name << " = adjoint_check.array<" << t << ">(\"" << p.name << "\", "
            << o.arrayLength << ", " << diff << ", " << range << ");\n";
    } else {
      std::string value = scalarValue(p, o, ints);
      decls << "  " << t << "& " << p.name << " = adjoint_check.scalar<" << t << ">(\"" << p.name << "\", " << value
            << ", " << diff << ");\n";
    }
    forward << ", " << p.name;
  }
  auto derivativeArgs = [&](const ir::Function& d) { return derivativeArguments(f, d, "adjoint_check"); };
  unsigned grid = o.grid ? o.grid : static_cast<unsigned>((o.arrayLength + o.block - 1) / o.block);
  std::ostringstream h;
  h << "// Verification harness written by `adjoint check` for the kernel " << f.name << " in " << source << ".\n"
    << "// Usage: ./check [seed]\n#include <cstdio>\n#include <cstdlib>\n\n"
    << "#include \"adjoint/cuda.h\"\n#include \"adjoint/verify_kernel.h\"\n"
    << includeForward(source) << "#include \"" << stem << ".grad.h\"\n#include \"" << stem << ".jvp.h\"\n\n"
    << "static void check(cudaError_t status) {\n  if (status == cudaSuccess) return;\n"
    << "  std::fprintf(stderr, \"launch failed: %s\\n\", cudaGetErrorString(status));\n  std::exit(2);\n}\n\n"
    << "int main(int argc, char** argv) {\n"
    << "  adjoint::KernelCheck adjoint_check(argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : " << o.seed
    << "u);\n"
    << decls.str() << "  dim3 grid(" << grid << "), block(" << o.block << ");\n"
    << "  bool ok = adjoint_check.run([&] { check(adjoint::launch(" << f.spelling << ", grid, block, 0, nullptr"
    << forward.str() << ")); },\n"
    << "                  [&] { check(" << ir::naming::launcherOf(vjp.name) << "(grid, block, 0, nullptr"
    << derivativeArgs(vjp) << ")); },\n"
    << "                  [&] { check(" << ir::naming::launcherOf(jvp.name) << "(grid, block, 0, nullptr"
    << derivativeArgs(jvp) << ")); },\n"
    << "                  [&] { check(" << ir::naming::launcherOf(vjp.name) << "(grid, block, 0, nullptr"
    << derivativeArgs(vjp) << ", adjoint::Bars::fresh)); });\n"
    << "  std::printf(ok ? \"all checks passed\\n\" : \"checks FAILED\\n\");\n  return ok ? 0 : 1;\n}\n";
  return h.str();
}

bool writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) {
    std::cerr << "error: cannot write '" << path << "'\n";
    return false;
  }
  return true;
}

int run(const std::vector<std::string>& command) {
  std::vector<llvm::StringRef> args(command.begin(), command.end());
  std::string error;
  int status = llvm::sys::ExecuteAndWait(command.front(), args, std::nullopt, {}, 0, 0, &error);
  if (!error.empty()) std::cerr << "error: " << error << "\n";
  return status;
}

std::string nvcc() {
  auto found = llvm::sys::findProgramByName("nvcc");
  if (!found) found = llvm::sys::findProgramByName("nvcc", {"/usr/local/cuda/bin"});
  return found ? *found : std::string();
}

std::string compiler() {
  const char* cxx = std::getenv("CXX");
  auto found = llvm::sys::findProgramByName(cxx && *cxx ? cxx : "c++");
  return found ? *found : std::string();
}

}  // namespace

int runCheck(const CheckOptions& o) {
  // The names adjoint_generate() gives the generated files: <source stem>.<function>.<mode>, the
  // function as an identifier (Chain::energy: Chain_energy; dot<double>: dot_double).
  std::string stem = llvm::sys::path::stem(o.pipeline.sourcePath).str() + "." + ir::identifier(o.pipeline.function);
  llvm::SmallString<256> source(o.pipeline.sourcePath);
  llvm::sys::fs::make_absolute(source);
  std::optional<Generated> g = generate(o, stem);
  if (!g) return 1;
  const ir::Function& f = *g->grad.prepared.find(g->grad.function);
  std::optional<Ranges> ranges = parseRanges(o.ranges, f);
  if (!ranges) return 1;
  bool kernel = f.kernel, host = derive::isHostLevel(f, g->grad.prepared);
  llvm::SmallString<256> dir;
  if (o.emitHarness.empty() && llvm::sys::fs::createUniqueDirectory("adjoint-check", dir)) {
    std::cerr << "error: cannot create a build directory\n";
    return 1;
  }
  std::string d = dir.str().str();
  // Host code's launches, for the CPU execution: the source with each written as a call.
  std::string forward = source.str().str();
  bool written = true;
  if (host && !o.gpu && o.emitHarness.empty()) {
    std::optional<std::string> cpu = frontend::launchesAsCalls(
        {o.pipeline.sourcePath, o.pipeline.sourceText, o.pipeline.compileArgs, o.pipeline.buildDir, {}});
    if (!cpu) return 1;
    forward = d + "/" + stem + ".forward.cu";
    written = writeFile(forward, *cpu);
  }
  if (g->train && !host) {
    std::cerr << "error: --params checks a training step, which takes host code\n";
    return 1;
  }
  std::string text = g->train ? trainHarness(o, *g, stem, forward, *ranges)
                     : host   ? hostHarness(o, *g, stem, forward, *ranges)
                     : kernel ? kernelHarness(o, *g, stem, source.str().str(), *ranges)
                              : harness(o, *g, stem, source.str().str(), *ranges);
  if (!o.emitHarness.empty()) return writeFile(o.emitHarness, text) ? 0 : 1;

  kernel = kernel || host;
  std::string ext = kernel ? ".cu" : ".cpp";
  written = written && writeFile(d + "/check" + ext, text);
  for (const auto& header : kRuntimeHeaders) {
    std::string path = d + "/adjoint/" + header.name;
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path));
    written = written && writeFile(path, header.text);
  }
  for (const PipelineResult* r : {&g->grad, &g->jvp}) {
    std::string base = d + "/" + stem + (r == &g->grad ? ".grad" : g->train ? ".train" : ".jvp");
    written = written && writeFile(base + ext, r->output.source) && writeFile(base + ".h", r->output.header);
  }
  // Kernels run on the CPU execution (a host compiler), or with --gpu on the GPU (nvcc).
  std::string cxx = o.gpu ? nvcc() : compiler();
  if (cxx.empty())
    std::cerr << "error: no " << (o.gpu ? "nvcc found (put it on PATH)" : "C++ compiler found (set CXX)") << "\n";
  int status = 1;
  if (written && !cxx.empty()) {
    std::vector<std::string> build{cxx, "-std=c++17", "-O1", "-I", d};
    if (kernel && o.gpu)
      build.insert(build.end(), {"-arch=sm_90"});
    else if (kernel)
      build.insert(build.end(), {"-x", "c++", "-DADJOINT_CPU_EXECUTION", "-I", d + "/adjoint/cpu"});
    build.insert(build.end(), o.pipeline.compileArgs.begin(), o.pipeline.compileArgs.end());
    for (const std::string& f :
         {d + "/check" + ext, d + "/" + stem + ".grad" + ext, d + "/" + stem + (g->train ? ".train" : ".jvp") + ext})
      build.push_back(f);
    build.insert(build.end(), {"-o", d + "/check"});
    if (host && o.gpu) build.push_back("-lcublas");
    status = run(build);
    if (status != 0)
      std::cerr << "error: building the harness failed (kept in " << d << ")\n";
    else
      status = run({d + "/check"});
  }
  if (status == 0 && !o.keep)
    llvm::sys::fs::remove_directories(d);
  else if (o.keep || status != 0)
    std::cerr << "note: the harness and the generated code are in " << d << "\n";
  return status == 0 ? 0 : 1;
}

}  // namespace adjoint::driver
