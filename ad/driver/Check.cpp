#include "ad/driver/Check.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>

#include "RuntimeHeaders.inc"
#include "ad/derive/Derivatives.h"

namespace adjoint::driver {

namespace {

struct Generated {
  PipelineResult grad, jvp;
};

std::optional<Generated> generate(const CheckOptions& o, const std::string& stem) {
  std::optional<PipelineResult> grad, jvp;
  PipelineOptions p = o.pipeline;
  p.emit.command = "adjoint check";
  runWithLargeStack([&] {
    p.mode = derive::Mode::Reverse;
    p.emit.headerName = stem + ".grad.h";
    grad = runPipeline(p);
    if (!grad) return;
    p.mode = derive::Mode::Forward;
    p.emit.headerName = stem + ".jvp.h";
    jvp = runPipeline(p);
  });
  if (!grad || !jvp) return std::nullopt;
  return Generated{*grad, *jvp};
}

// The harness: verify<mask>(name, f, f_grad, f_jvp, options) with the options of the command.
std::string harness(const CheckOptions& o, const Generated& g, const std::string& stem, const std::string& source) {
  const ir::Function& f = *g.grad.prepared.find(o.pipeline.function);
  std::set<std::string> wrt(o.pipeline.wrt.begin(), o.pipeline.wrt.end());
  unsigned long long mask = 0;
  std::string names;
  for (size_t i = 0; i < f.params.size(); ++i) names += (i ? ", \"" : "\"") + f.params[i].name + "\"";
  for (const ir::Param* p : derive::differentiatedParams(f, wrt)) mask |= 1ull << (p - f.params.data());
  std::string ints;
  for (size_t i = 0; i < o.intValues.size(); ++i) ints += (i ? ", " : "") + std::to_string(o.intValues[i]);
  std::ostringstream h;
  h << "// Verification harness written by `adjoint check` for " << f.name << " in " << source << ".\n"
    << "// Usage: ./check [seed]\n"
    << "#include <cstdio>\n#include <string>\n\n"
    << "#include \"adjoint/verify.h\"\n#include \"" << stem << ".grad.h\"\n#include \"" << stem << ".jvp.h\"\n"
    << "#include \"" << source << "\"\n\n"
    << "int main(int argc, char** argv) {\n"
    << "  adjoint::VerifyOptions options;\n"
    << "  options.seed = argc > 1 ? static_cast<unsigned>(std::stoul(argv[1])) : " << o.seed << "u;\n"
    << "  options.ints = {" << ints << "};\n"
    << "  options.length = " << o.arrayLength << ";\n"
    << "  options.names = {" << names << "};\n"
    << "  options.table = true;\n"
    << "  std::printf(\"checking " << f.name << " (seed %u)\\n\", options.seed);\n"
    << "  int failures = adjoint::verify<" << mask << "ull>(\"" << f.name << "\", " << f.name << ", "
    << g.grad.derivatives.front().name << ", " << g.jvp.derivatives.front().name << ", options);\n"
    << "  std::printf(failures ? \"%d check(s) FAILED\\n\" : \"all checks passed\\n\", failures);\n"
    << "  return failures ? 1 : 0;\n}\n";
  return h.str();
}

// The harness of a kernel: its arrays (all --array-length long; integer arrays hold valid indices
// below that), its integer scalars (--int-values, else the array length), float scalars 0.7;
// the forward, the vjp launcher and the jvp launcher around adjoint::KernelCheck.
std::string kernelHarness(const CheckOptions& o, const Generated& g, const std::string& stem, const std::string& source) {
  const ir::Function& f = *g.grad.prepared.find(o.pipeline.function);
  const ir::Function& vjp = g.grad.derivatives.front();
  const ir::Function& jvp = g.jvp.derivatives.front();
  std::ostringstream decls, forward;
  size_t ints = 0;
  for (const ir::Param& p : f.params) {
    bool differentiated = p.type.isFloating() && (vjp.param(p.name + "_bar") || jvp.param(p.name + "_dot"));
    std::string t = p.type.scalarSpelling(), diff = differentiated ? "true" : "false";
    if (p.type.pointer) {
      std::string range = p.type.isFloating() ? "-1, 1" : "0, " + std::to_string(o.arrayLength);
      decls << "  " << t << "* " << p.name << " = c.array<" << t << ">(\"" << p.name << "\", " << o.arrayLength << ", " << diff
            << ", " << range << ");\n";
    } else {
      std::string value = p.type.isFloating() ? "0.7" : std::to_string(ints < o.intValues.size() ? o.intValues[ints] : long(o.arrayLength));
      ints += !p.type.isFloating();
      decls << "  " << t << "& " << p.name << " = c.scalar<" << t << ">(\"" << p.name << "\", " << value << ", " << diff << ");\n";
    }
    forward << ", " << p.name;
  }
  auto derivativeArgs = [&](const ir::Function& d, const std::string& suffix) {
    std::string args;
    for (const ir::Param& p : d.params) {
      if (p.name == "block_sums" || p.name == "virtual_blocks") continue;
      std::string base = p.name.size() > suffix.size() ? p.name.substr(0, p.name.size() - suffix.size()) : "";
      const ir::Param* primal = !base.empty() && p.name.compare(base.size(), suffix.size(), suffix) == 0 ? f.param(base) : nullptr;
      if (!primal || f.param(p.name)) args += ", " + p.name;
      else if (primal->type.pointer) args += ", c.derivative(" + base + ")";
      else args += suffix == "_bar" ? ", c.scalarBar(" + base + ")" : ", c.scalarDot(" + base + ")";
    }
    return args;
  };
  unsigned grid = o.grid ? o.grid : static_cast<unsigned>((o.arrayLength + o.block - 1) / o.block);
  std::ostringstream h;
  h << "// Verification harness written by `adjoint check` for the kernel " << f.name << " in " << source << ".\n"
    << "// Usage: ./check [seed]\n#include <cstdio>\n#include <cstdlib>\n\n"
    << "#include \"adjoint/cuda.h\"\n#include \"adjoint/verify_kernel.h\"\n#include \"" << source << "\"\n"
    << "#include \"" << stem << ".grad.h\"\n#include \"" << stem << ".jvp.h\"\n\n"
    << "static void check(cudaError_t status) {\n  if (status == cudaSuccess) return;\n"
    << "  std::fprintf(stderr, \"launch failed: %s\\n\", cudaGetErrorString(status));\n  std::exit(2);\n}\n\n"
    << "int main(int argc, char** argv) {\n"
    << "  adjoint::KernelCheck c(argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : " << o.seed << "u);\n" << decls.str()
    << "  dim3 grid(" << grid << "), block(" << o.block << ");\n"
    << "  bool ok = c.run([&] { check(adjoint::launch(" << f.name << ", grid, block, 0, nullptr" << forward.str() << ")); },\n"
    << "                  [&] { check(" << vjp.name << "_launch(grid, block, 0, nullptr" << derivativeArgs(vjp, "_bar") << ")); },\n"
    << "                  [&] { check(" << jvp.name << "_launch(grid, block, 0, nullptr" << derivativeArgs(jvp, "_dot") << ")); });\n"
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
  // The names adjoint_generate() gives the generated files: <source stem>.<function>.<mode>.
  std::string stem = llvm::sys::path::stem(o.pipeline.sourcePath).str() + "." + o.pipeline.function;
  llvm::SmallString<256> source(o.pipeline.sourcePath);
  llvm::sys::fs::make_absolute(source);
  std::optional<Generated> g = generate(o, stem);
  if (!g) return 1;
  bool kernel = g->grad.prepared.find(o.pipeline.function)->kernel;
  std::string text = kernel ? kernelHarness(o, *g, stem, source.str().str()) : harness(o, *g, stem, source.str().str());
  if (!o.emitHarness.empty()) return writeFile(o.emitHarness, text) ? 0 : 1;

  llvm::SmallString<256> dir;
  if (llvm::sys::fs::createUniqueDirectory("adjoint-check", dir)) {
    std::cerr << "error: cannot create a build directory\n";
    return 1;
  }
  std::string d = dir.str().str();
  llvm::sys::fs::create_directories(d + "/adjoint");
  std::string ext = kernel ? ".cu" : ".cpp";
  bool written = writeFile(d + "/adjoint/verify.h", kVerifyHeader) && writeFile(d + "/check" + ext, text);
  for (const auto& header : kKernelHeaders) written = written && (!kernel || writeFile(d + "/adjoint/" + header.name, header.text));
  for (const PipelineResult* r : {&g->grad, &g->jvp}) {
    std::string base = d + "/" + stem + (r == &g->grad ? ".grad" : ".jvp");
    written = written && writeFile(base + ext, r->output.source) && writeFile(base + ".h", r->output.header);
  }
  // Kernels run on the CPU execution (a host compiler), or with --gpu on the GPU (nvcc).
  std::string cxx = o.gpu ? nvcc() : compiler();
  if (cxx.empty()) std::cerr << "error: no " << (o.gpu ? "nvcc found (put it on PATH)" : "C++ compiler found (set CXX)") << "\n";
  int status = 1;
  if (written && !cxx.empty()) {
    std::vector<std::string> build{cxx, "-std=c++17", "-O1", "-I", d};
    if (kernel && o.gpu) build.insert(build.end(), {"-arch=sm_90"});
    else if (kernel) build.insert(build.end(), {"-x", "c++", "-DADJOINT_CPU_EXECUTION"});
    build.insert(build.end(), o.pipeline.compileArgs.begin(), o.pipeline.compileArgs.end());
    for (const std::string& f : {d + "/check" + ext, d + "/" + stem + ".grad" + ext, d + "/" + stem + ".jvp" + ext}) build.push_back(f);
    build.insert(build.end(), {"-o", d + "/check"});
    status = run(build);
    if (status != 0) std::cerr << "error: building the harness failed (kept in " << d << ")\n";
    else status = run({d + "/check"});
  }
  if (status == 0 && !o.keep) llvm::sys::fs::remove_directories(d);
  else if (o.keep || status != 0) std::cerr << "note: the harness and the generated code are in " << d << "\n";
  return status == 0 ? 0 : 1;
}

}  // namespace adjoint::driver
