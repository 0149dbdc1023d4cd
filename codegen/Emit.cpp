#include "codegen/Emit.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "ad/analysis/Activity.h"
#include "ad/ir/Naming.h"
#include "ad/ir/Printer.h"
#include "codegen/Launcher.h"
#include "transforms/UnusedParams.h"

namespace adjoint::codegen {

namespace {

using namespace ir;

std::set<std::string> callees(const StmtList& body) {
  std::set<std::string> names;
  walkExprs(body, [&](const Expr& e) {
    if (e.kind == ExprKind::Call) names.insert(e.text);
  });
  return names;
}

// The entry point and the helpers it reaches: simplification may have removed the last call of a
// helper generated for it.
std::vector<Function> reachable(const std::vector<Function>& derivatives) {
  std::set<std::string> needed{derivatives.front().name};
  for (bool changed = true; changed;) {
    changed = false;
    for (const Function& d : derivatives)
      if (needed.count(d.name))
        for (const std::string& c : callees(d.body)) changed |= needed.insert(c).second;
  }
  std::vector<Function> out;
  for (const Function& d : derivatives)
    if (needed.count(d.name)) out.push_back(d);
  return out;
}

// The forward functions the derivatives call, transitively, in module order.
std::vector<Function> forwardCopies(const Module& original, const std::vector<Function>& derivatives) {
  std::set<std::string> needed;
  for (const Function& d : derivatives) needed.merge(callees(d.body));
  for (bool changed = true; changed;) {
    changed = false;
    for (const Function& f : original.functions)
      if (needed.count(f.name))
        for (const std::string& c : callees(f.body)) changed |= needed.insert(c).second;
  }
  std::vector<Function> out;
  for (const Function& f : original.functions) {
    if (!needed.count(f.name)) continue;
    Function copy = f;
    copy.internal = true;
    transforms::markUnusedParams(copy);  // the copy compiles warning-free whatever the original did
    out.push_back(copy);
  }
  return out;
}

bool isCuda(const std::vector<Function>& fs) {
  return std::any_of(fs.begin(), fs.end(), [](const Function& f) {
    return f.kernel || f.device || f.hostLevel;  // kernels, or host code over them
  });
}

// Whether the functions take a cuBLAS handle: they include adjoint/cublas.h.
bool usesCublas(const std::vector<Function>& fs) {
  for (const Function& f : fs)
    for (const Param& p : f.params)
      if (p.type.scalar == Scalar::Opaque && p.type.spelled == "cublasHandle_t") return true;
  return false;
}

// Whether the functions fill buffers or differentiate copies (adjoint/buffers.h).
bool usesBufferKernels(const std::vector<Function>& fs) {
  for (const Function& f : fs)
    for (const std::string& c : callees(f.body))
      if (c == "adjoint::fill" || c == "adjoint::copy_vjp") return true;
  return false;
}

bool usesTape(const std::vector<Function>& fs) {
  bool found = false;
  for (const Function& f : fs) walk(f.body, [&](const Stmt& s) { found |= s.kind == StmtKind::Decl && s.type.tape; });
  return found;
}

// Whether the functions declare a std::vector local (a tape, or a vector of the user's).
bool usesVectorLocal(const std::vector<Function>& fs) {
  bool found = false;
  for (const Function& f : fs)
    walk(f.body, [&](const Stmt& s) {
      found |= s.kind == StmtKind::Decl && (s.type.tape || s.type.container == "std::vector");
    });
  return found;
}

// The source's own `#include <...>` lines, where the functions keep code as the program wrote it
// (a random engine, output): what it names is declared there. (<cmath> and <vector> the
// preamble includes anyway.)
std::string passedThroughIncludes(const std::vector<Function>& fs, const Module& original) {
  bool found = false;
  for (const Function& f : fs) walkExprs(f.body, [&](const Expr& e) { found |= e.kind == ExprKind::Verbatim; });
  std::string out;
  for (const std::string& line : found ? original.sourceLines : std::vector<std::string>{}) {
    size_t hash = line.find_first_not_of(" \t");
    if (hash == std::string::npos || line[hash] != '#') continue;
    size_t open = line.find('<'), close = line.find('>');
    std::string directive = line.substr(hash + 1, open == std::string::npos ? 0 : open - hash - 1);
    directive.erase(std::remove(directive.begin(), directive.end(), ' '), directive.end());
    if (directive != "include" || close == std::string::npos || close < open) continue;
    std::string header = line.substr(open, close - open + 1);
    if (header != "<cmath>" && header != "<vector>") out += "#include " + header + "\n";
  }
  return out;
}

// Whether the functions keep a user's assert(c).
bool usesAssert(const std::vector<Function>& fs) {
  bool found = false;
  for (const Function& f : fs)
    walkExprs(f.body, [&](const Expr& e) { found |= e.kind == ExprKind::Call && e.text == "assert"; });
  return found;
}

// The standard headers the signatures of `fs` need: <cstddef> for size_t, <cstdint> for int64_t,
// <array> and <vector> for containers, <tuple> and <utility> for std::tuple and std::pair,
// <cuda_bf16.h> and <cuda_fp16.h> for arrays of 16-bit floats.
std::string signatureIncludes(const std::vector<Function>& fs) {
  bool cstddef = false, cstdint = false, array = false, tuple = false, utility = false, vector = false;
  bool bfloat16 = false, half = false;
  for (const Function& f : fs)
    for (const Param& p : f.params) {
      const std::string& t = p.type.spelled;
      bfloat16 |= p.type.storage == "__nv_bfloat16";
      half |= p.type.storage == "__half";
      array |= p.type.container == "std::array";
      vector |= p.type.container == "std::vector";
      tuple |= p.type.record && p.type.record->header == "<tuple>";
      utility |= p.type.record && p.type.record->header == "<utility>";
      cstddef |= t.find("size_t") != std::string::npos || t.find("ptrdiff_t") != std::string::npos;
      cstdint |= t.find("int8_t") != std::string::npos || t.find("int16_t") != std::string::npos ||
                 t.find("int32_t") != std::string::npos || t.find("int64_t") != std::string::npos;
    }
  return std::string(array ? "#include <array>\n" : "") + (cstddef ? "#include <cstddef>\n" : "") +
         (cstdint ? "#include <cstdint>\n" : "") + (tuple ? "#include <tuple>\n" : "") +
         (utility ? "#include <utility>\n" : "") + (vector ? "#include <vector>\n" : "") +
         (bfloat16 ? "#include <cuda_bf16.h>\n" : "") + (half ? "#include <cuda_fp16.h>\n" : "");
}

// The structs and enumerations the generated functions take, in order of first use, but those a
// standard header defines.
std::vector<std::shared_ptr<const StructInfo>> structsUsed(const std::vector<Function>& fs) {
  std::vector<std::shared_ptr<const StructInfo>> out;
  for (const Function& f : fs)
    for (const Param& p : f.params)
      if (p.type.record && p.type.record->header.empty() &&
          std::find(out.begin(), out.end(), p.type.record) == out.end())
        out.push_back(p.type.record);
  return out;
}

std::string baseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Each line of `text` broken at spaces into lines of at most `width` characters; the continuation
// of an indented line (a parameter's entry) is indented two more, so that the entries stay apart.
std::string wrapped(const std::string& text, size_t width) {
  std::istringstream lines(text);
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    size_t indent = line.find_first_not_of(' ');
    std::string prefix = out.empty() ? "" : "\n";
    while (line.size() > width) {
      size_t cut = line.rfind(' ', width);
      if (cut == std::string::npos || cut <= indent) break;
      out += prefix + line.substr(0, cut);
      line = std::string(indent ? indent + 2 : 0, ' ') + line.substr(cut + 1);
      prefix = "\n";
    }
    out += prefix + line;
  }
  return out;
}

// A training step: what it does, and what its optimizer's parameters mean.
std::string trainStepDoc(const Function& d) {
  std::string optimizer;
  for (const Param& p : d.params) {
    if (p.role == Role::OptimizerState)
      optimizer +=
          "\n  " + p.name + ": the optimizer's state for " + p.of + ", updated in place (zero before the first step)";
    else if (p.role == Role::Hyperparameter)
      optimizer += "\n  " + p.name +
                   (p.name == "lr"     ? ": the learning rate"
                    : p.name == "step" ? ": the number of this step, from 1 (bias correction)"
                                       : ": the optimizer's " + p.name);
  }
  std::string doc = "Training step of " + d.primal + ": runs " + d.primal +
                    " (the buffers it writes hold what it leaves in them, the loss included), computes the "
                    "gradient of the loss with respect to the trained parameters (the buffers not const here) and "
                    "updates them in place. Returns the first error of its launches, GEMMs and copies (cudaSuccess "
                    "when all ran). After its first call, which sizes its scratch memory, a call with the same sizes "
                    "allocates nothing and does not synchronize: it can be captured into a CUDA graph and replayed "
                    "(capture the stream it runs on; launches written without a stream run on the default stream, "
                    "which can be captured when built with --default-stream per-thread, as cudaStreamPerThread)." +
                    optimizer;
  return wrapped(doc, 96);
}

// What adjoint::Bars::fresh changes in a vjp kernel (transforms/FreshBars.h).
std::string freshBarsNote(const Function& d) {
  auto listed = [](const std::set<std::string>& names) {
    std::string out;
    size_t k = 0;
    for (const std::string& n : names) out += (k++ == 0 ? "" : k == names.size() ? " and " : ", ") + n;
    return out;
  };
  if (!d.takesFreshBars())
    return "adjoint::Bars::add, or adjoint::Bars::fresh (adjoint/cuda_host.h), which changes nothing here";
  std::string note =
      "adjoint::Bars::fresh (the caller's adjoints of inputs hold zero, and it has no use for the "
      "adjoints of the values the kernel overwrites; adjoint/cuda_host.h) ";
  if (!d.storedWhenFresh.empty())
    note += "stores " + listed(d.storedWhenFresh) + " instead of adding into " +
            (d.storedWhenFresh.size() == 1 ? "it" : "them");
  if (!d.storedWhenFresh.empty() && !d.seedsKeptWhenFresh.empty()) note += ", and ";
  if (!d.seedsKeptWhenFresh.empty()) note += "leaves the seeds in " + listed(d.seedsKeptWhenFresh) + " unzeroed";
  return note;
}

// What the entry point computes and what each derivative parameter means, for the header.
std::string entryDoc(const Function& d, const Module& original) {
  const Function* f = original.find(d.primal);
  std::set<std::string> written = f ? analysis::writtenVariables(f->body) : std::set<std::string>{};
  bool jvp = std::any_of(d.params.begin(), d.params.end(), [](const Param& p) { return p.role == Role::Tangent; });
  if (d.trainStep) return trainStepDoc(d);
  std::string doc;
  if (jvp)
    doc = "Forward mode of " + d.primal + ": " +
          (d.returnType.isFloating() ? "returns the derivative of its result along the _dot directions"
           : d.hostLevel             ? "computes what " + d.primal + " computes"
                                     : "runs " + d.primal) +
          "; arrays it writes get their tangents in their _dot arrays.";
  else
    doc = "Reverse mode of " + d.primal + ": adds the gradient of " +
          (f && f->returnsFloating() ? "its result (and, seeded through their _bar arrays, of the arrays it writes)"
                                     : "the arrays it writes, seeded through their _bar arrays,") +
          " into the _bar arguments.";
  if (d.hostLevel)
    doc += " The forward runs in scratch copies of the buffers " + d.primal +
           " writes: every buffer but the derivatives is left as it came in. Returns the first error of "
           "its launches and copies (cudaSuccess when all ran).";
  for (const Param& p : d.params) {
    const std::string& base = p.of;
    bool output = f && f->param(base) && f->param(base)->type.pointer && written.count(base);
    if (p.role == Role::Adjoint)
      doc += "\n  " + p.name +
             (output ? ": in: the adjoint of " + base + " as the function leaves it (the seed); out: the adjoint of " +
                           base + " as it came in"
                     : ": the adjoint of " + base + " is added here (+=); the caller zeroes it first");
    else if (p.role == Role::Tangent)
      doc += "\n  " + p.name + (output ? ": out: the tangent of " + base : ": the direction for " + base);
  }
  if (isVjpKernel(d)) doc += "\n  " + std::string(naming::kBarsArgument) + ": " + freshBarsNote(d);
  std::string rows;
  for (const Param& p : d.params)
    if (!p.type.rowExtents.empty()) rows += (rows.empty() ? "" : ", ") + p.name;
  if (!rows.empty())
    doc += "\n  " + rows +
           ": arrays of arrays as the caller passes them; the body indexes each as one array, row after row";
  return wrapped(doc, 96);  // with "// " in front: within the formatter's 100 columns
}

}  // namespace

namespace {

// The preamble of the source: includes, the tape helper, the structs and external declarations,
// and prototypes of the internal functions (recursion and call order need them).
void emitPreamble(std::ostringstream& src, const Module& original, const std::vector<Function>& copies,
                  const std::vector<Function>& derivatives, const EmitOptions& options) {
  bool tape = usesTape(derivatives);
  std::vector<Function> all = copies;
  all.insert(all.end(), derivatives.begin(), derivatives.end());
  if (!options.headerName.empty()) src << "#include \"" << options.headerName << "\"\n\n";
  // (Without a header, what it would include for the signatures.)
  if (std::string includes = signatureIncludes(all); options.headerName.empty() && !includes.empty())
    src << includes << "\n";
  src << (usesAssert(all) ? "#include <cassert>\n" : "") << "#include <cmath>\n"
      << (usesVectorLocal(all) ? "#include <vector>\n" : "") << passedThroughIncludes(all, original) << "\n";
  if (isCuda(derivatives))
    src << "#include \"adjoint/cuda.h\"\n"
        << (usesCublas(derivatives) ? "#include \"adjoint/cublas.h\"\n" : "")
        << (derivatives.front().trainStep    ? "#include \"adjoint/optimizers.h\"\n"
            : usesBufferKernels(derivatives) ? "#include \"adjoint/buffers.h\"\n"
                                             : "")
        << (std::any_of(derivatives.begin(), derivatives.end(), [](const Function& f) { return !f.columnSums.empty(); })
                ? "#include \"adjoint/columns.h\"\n"
                : "")
        << (std::any_of(derivatives.begin(), derivatives.end(), [](const Function& f) { return !f.segments.empty(); })
                ? "#include \"adjoint/segments.h\"\n"
                : "")
        << "\n";
  if (tape)
    src << "// Takes the most recent value off a tape.\n"
           "template <class T> static T adjoint_pop(std::vector<T>& tape) {\n"
           "  T value = tape.back();\n  tape.pop_back();\n  return value;\n}\n\n";
  std::vector<std::shared_ptr<const StructInfo>> types = original.enums;
  for (const auto& s : structsUsed(all))
    if (!s->isEnum()) types.push_back(s);
  if (!types.empty())
    src << "// The forward program's types (identical definitions, as the one-definition rule asks).\n";
  for (const auto& s : types) src << s->definition << "\n\n";
  if (!original.externals.empty()) {
    src << "// Defined by the forward program; differentiated through their rules or as constants.\n";
    for (const Function& f : original.externals) src << printSignature(f) << ";\n";
    src << "\n";
  }
  bool prototypes = false;
  for (const Function& f : all)
    if (f.internal) {
      src << printSignature(f) << ";\n";
      if (f.kernel && !f.primal.empty()) src << launcherSignature(f, true) << ";\n";
      prototypes = true;
    }
  if (prototypes) src << "\n";
}

std::string emitHeader(const Module& original, const std::vector<Function>& derivatives, const std::string& banner) {
  std::ostringstream hdr;
  hdr << banner << "#pragma once\n\n";
  bool cuda = isCuda(derivatives);
  if (cuda)
    hdr << (usesCublas(derivatives) ? "#include \"adjoint/cublas.h\"\n\n" : "#include \"adjoint/cuda_host.h\"\n\n");
  if (std::string includes = signatureIncludes(derivatives); !includes.empty()) hdr << includes << "\n";
  std::vector<std::shared_ptr<const StructInfo>> structs = structsUsed(derivatives);
  for (const auto& s : structs) hdr << s->declaration << "\n";
  if (!structs.empty()) hdr << "\n";
  for (const Function& d : derivatives) {
    if (d.internal) continue;
    std::istringstream lines(entryDoc(d, original));
    for (std::string l; std::getline(lines, l);) hdr << "// " << l << "\n";
    if (!d.kernel) {
      hdr << printSignature(d) << ";\n";
      continue;
    }
    // A plain C++ translation unit calls the launcher; CUDA code may launch the kernel itself.
    hdr << launcherSignature(d, true) << ";\n#ifdef __CUDACC__\n" << printSignature(d) << ";\n#endif\n";
  }
  return hdr.str();
}

}  // namespace

Output emit(const Module& original, const std::vector<Function>& generated, const EmitOptions& options) {
  std::vector<Function> derivatives = reachable(generated);
  std::vector<Function> copies = forwardCopies(original, derivatives);
  std::string banner = "// Generated by adjoint from " + baseName(original.sourcePath) +
                       ". Do not edit; regenerate with\n//   " + options.command + "\n";
  std::ostringstream src;
  src << banner;
  emitPreamble(src, original, copies, derivatives, options);
  for (const Function& f : copies) {
    Function c = f;
    c.doc = f.runtimeHeader.empty()
                ? "forward: " + f.name + " (line " + std::to_string(f.loc.line) + ")"
                : "from " + f.runtimeHeader + ": a helper of the derivative rules the code below uses";
    src << print(c) << "\n";
  }
  PrintOptions lines;
  if (options.lineDirectives) lines.lineFile = original.sourcePath;
  for (const Function& d : derivatives) {
    Function c = d;
    if (!d.internal) c.doc = entryDoc(d, original);
    src << print(c, lines) << "\n";
    if (d.kernel) src << launcher(d) << "\n";
  }
  return {src.str(), emitHeader(original, derivatives, banner)};
}

}  // namespace adjoint::codegen
