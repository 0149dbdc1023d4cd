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
  std::string text = harness(o, *g, stem, source.str().str());
  if (!o.emitHarness.empty()) return writeFile(o.emitHarness, text) ? 0 : 1;

  llvm::SmallString<256> dir;
  if (llvm::sys::fs::createUniqueDirectory("adjoint-check", dir)) {
    std::cerr << "error: cannot create a build directory\n";
    return 1;
  }
  std::string d = dir.str().str();
  llvm::sys::fs::create_directories(d + "/adjoint");
  bool written = writeFile(d + "/adjoint/verify.h", kVerifyHeader) && writeFile(d + "/check.cpp", text);
  for (const PipelineResult* r : {&g->grad, &g->jvp}) {
    std::string base = d + "/" + stem + (r == &g->grad ? ".grad" : ".jvp");
    written = written && writeFile(base + ".cpp", r->output.source) && writeFile(base + ".h", r->output.header);
  }
  std::string cxx = compiler();
  if (cxx.empty()) std::cerr << "error: no C++ compiler found (set CXX)\n";
  int status = 1;
  if (written && !cxx.empty()) {
    std::vector<std::string> build{cxx, "-std=c++17", "-O1", "-I", d};
    build.insert(build.end(), o.pipeline.compileArgs.begin(), o.pipeline.compileArgs.end());
    for (const std::string& f : {d + "/check.cpp", d + "/" + stem + ".grad.cpp", d + "/" + stem + ".jvp.cpp"}) build.push_back(f);
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
