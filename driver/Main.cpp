// The `adjoint` command line: `adjoint grad|jvp <file> --fn <name> [options] [-- <compiler flags>]`.
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Path.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "ad/derive/Optimizers.h"
#include "ad/frontend/Frontend.h"
#include "ad/ir/Printer.h"
#include "driver/Check.h"
#include "driver/Pipeline.h"

namespace {

namespace cl = llvm::cl;
using adjoint::driver::PipelineOptions;

cl::OptionCategory category("adjoint options");
cl::opt<std::string> inputPath(cl::Positional, cl::desc("<source file>"), cl::Required, cl::cat(category));
cl::opt<std::string> functionName("fn", cl::desc("Function to differentiate"), cl::value_desc("name"), cl::Required,
                                  cl::cat(category));
cl::list<std::string> wrtList(
    "wrt", cl::desc("Parameters to differentiate with respect to (default: every float or double parameter)"),
    cl::value_desc("a,b,..."), cl::CommaSeparated, cl::cat(category));
cl::opt<std::string> outputPath("o",
                                cl::desc("Output source (default: <input>.grad.cpp or <input>.jvp.cpp); the header "
                                         "goes next to it as .h; - writes the source alone to standard output"),
                                cl::value_desc("file"), cl::cat(category));
cl::opt<std::string> buildDir("p", cl::desc("Build directory holding compile_commands.json (else: flags after --)"),
                              cl::value_desc("dir"), cl::cat(category));
cl::opt<std::string> emitKind(
    "emit",
    cl::desc("What to produce: source (default) writes the files; ir prints the prepared and differentiated IR"),
    cl::value_desc("source|ir"), cl::init("source"), cl::cat(category));
cl::OptionCategory trainCategory("adjoint train-step options");
cl::list<std::string> trainedParams("params", cl::desc("The buffers the step trains"), cl::value_desc("a,b,..."),
                                    cl::CommaSeparated, cl::cat(trainCategory));
cl::opt<std::string> optimizer("optimizer", cl::desc("sgd (default), momentum or adamw"), cl::value_desc("name"),
                               cl::init("sgd"), cl::cat(trainCategory));
cl::opt<std::string> lossName("loss", cl::desc("The one-element buffer holding the loss (default: loss)"),
                              cl::value_desc("name"), cl::init("loss"), cl::cat(trainCategory));
cl::OptionCategory checkCategory("adjoint check options");
cl::opt<unsigned> seed("seed", cl::desc("Seed of the random inputs (printed by the harness)"), cl::init(12345),
                       cl::cat(checkCategory));
cl::list<long> intValues("int-values", cl::desc("Values of the integer parameters, in order (default: 6 each)"),
                         cl::value_desc("a,b,..."), cl::CommaSeparated, cl::cat(checkCategory));
cl::opt<unsigned> arrayLength("array-length",
                              cl::desc("Elements of every array argument (host code: of those no step bounds)"),
                              cl::init(64), cl::cat(checkCategory));
cl::opt<std::string> emitHarness(
    "emit-harness", cl::desc("Write the verification harness source here instead of building and running it"),
    cl::value_desc("file"), cl::cat(checkCategory));
cl::opt<bool> keep("keep", cl::desc("Keep the directory where the harness was built"), cl::cat(checkCategory));
cl::list<std::string> ranges("range",
                             cl::desc("Range of the random values: lo,hi for every floating input, name=lo,hi for one "
                                      "parameter (repeatable; default 0.5,1.5, kernels -1,1)"),
                             cl::value_desc("[name=]lo,hi"), cl::cat(checkCategory));
cl::opt<unsigned> blockSize("block", cl::desc("Kernels: threads per block"), cl::init(64), cl::cat(checkCategory));
cl::opt<unsigned> gridSize("grid", cl::desc("Kernels: blocks (default: one thread per array element)"), cl::init(0),
                           cl::cat(checkCategory));
cl::opt<bool> onGpu("gpu",
                    cl::desc("Kernels and host code: build with nvcc and run on the GPU (default: the CPU "
                             "execution of kernels)"),
                    cl::cat(checkCategory));

// LLVM's own options already hold the names --print-before, --print-after and --time-passes, so
// these are read before llvm::cl runs.
std::vector<std::string> printBefore, printAfter;
bool timePasses = false;
cl::opt<std::string> depfile(
    "depfile",
    cl::desc("Also write a Make-style depfile: the outputs depend on the source and every header it includes"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<bool> lineDirectives(
    "line-directives", cl::desc("Emit #line directives mapping the generated statements to the forward source lines"),
    cl::cat(category));
cl::opt<bool> deterministic(
    "deterministic",
    cl::desc("Kernels: bitwise-reproducible gradients, with no floating-point atomics (per-block sums "
             "added in a fixed order; an error where an adjoint would need an atomic)"),
    cl::cat(category));

const char* kOverview =
    "adjoint: source-to-source automatic differentiation for C++\n\n"
    "USAGE: adjoint <command> <file> --fn <name> [options] [-- <compiler flags>]\n\n"
    "COMMANDS:\n"
    "  grad   reverse mode: writes <fn>_grad (functions returning float/double) or <fn>_vjp (functions\n"
    "         writing output arrays), which add the gradient into caller-zeroed _bar arguments\n"
    "  jvp    forward mode: writes <fn>_jvp, which returns the directional derivative along the _dot\n"
    "         arguments\n"
    "  train-step  host code: writes <fn>_train_step, the forward, the loss's gradient and the\n"
    "         update of the --params buffers by the --optimizer, in one call\n"
    "  check  generates both, builds a verification harness with the C++ compiler ($CXX or c++) and\n"
    "         runs it: finite differences and the dot-product test on random inputs; exits nonzero\n"
    "         when a check fails\n"
    "  definitions <file>  lists the functions the file defines, one per line, read without\n"
    "         preprocessing (no flags needed): how a build system finds the source of a function\n\n"
    "Run `adjoint grad --help` for the options. Besides those, --print-before=<pass> and\n"
    "--print-after=<pass> print the IR (or the source) before or after a pass (or all), and\n"
    "--time-passes prints the time each pass took; `adjoint --list-passes` lists the passes in order.\n";

// `adjoint definitions <file>`: the functions the file defines, one per line.
int listDefinitions(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: adjoint definitions <file>\n";
    return 1;
  }
  std::ifstream in(argv[2]);
  if (!in) {
    std::cerr << "error: cannot read '" << argv[2] << "': " << std::strerror(errno) << "\n";
    return 1;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const std::string& name : adjoint::frontend::definedFunctions(text)) std::cout << name << "\n";
  return 0;
}

// `adjoint --list-passes`: the pipeline's table.
void listPasses() {
  for (const adjoint::driver::Pass& p : adjoint::driver::passes())
    std::cout << "  " << p.name << std::string(p.name.size() < 20 ? 20 - p.name.size() : 1, ' ') << p.description
              << "\n";
}

// `path` with its extension (if any) replaced by `extension`: model.cpp -> model.grad.cpp.
std::string withExtension(const std::string& path, const char* extension) {
  llvm::SmallString<256> p(path);
  llvm::sys::path::replace_extension(p, extension);
  return p.str().str();
}

std::string defaultOutput(const std::string& input, const std::string& mode) {
  std::string kind = mode == "jvp" ? "jvp" : mode == "train-step" ? "train" : "grad";
  return withExtension(input, (kind + (llvm::StringRef(input).ends_with(".cu") ? ".cu" : ".cpp")).c_str());
}
std::string headerPath(const std::string& source) { return withExtension(source, "h"); }
std::string baseName(const std::string& path) { return llvm::sys::path::filename(path).str(); }

bool writeTemp(const std::string& path, const std::string& text, std::string& temp) {
  temp = path + ".tmp." + std::to_string(getpid());
  std::ofstream out(temp, std::ios::binary);
  if (!out || !(out << text) || !(out.flush())) {
    std::cerr << "error: cannot write '" << path << "': " << std::strerror(errno) << "\n";
    std::remove(temp.c_str());
    return false;
  }
  return true;
}

// Writes both files or neither: each goes to a temporary first, then both are renamed.
bool writeOutputs(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::string> temps;
  for (const auto& [path, text] : files) {
    std::string temp;
    if (!writeTemp(path, text, temp)) {
      for (const std::string& t : temps) std::remove(t.c_str());
      return false;
    }
    temps.push_back(temp);
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (std::rename(temps[i].c_str(), files[i].first.c_str()) != 0) {
      std::cerr << "error: cannot write '" << files[i].first << "': " << std::strerror(errno) << "\n";
      for (size_t k = 0; k < files.size(); ++k) std::remove((k < i ? files[k].first : temps[k]).c_str());
      return false;
    }
  }
  return true;
}

// `out.cpp out.h: dep1 dep2 ...`, spaces escaped as Make wants them.
std::string makeDepfile(const std::string& source, const std::string& header, const std::vector<std::string>& deps) {
  auto escape = [](const std::string& path) {
    std::string e;
    for (char c : path) e += c == ' ' ? std::string("\\ ") : std::string(1, c);
    return e;
  };
  std::string text = escape(source) + " " + escape(header) + ":";
  for (const std::string& d : deps) text += " \\\n  " + escape(d);
  return text + "\n";
}

// The command that regenerates the output, for its banner: the options that change what is
// generated, and the compiler flags after `--`.
std::string commandLine(const std::string& mode, const std::vector<std::string>& compileArgs) {
  std::string cmd = "adjoint " + mode + " " + baseName(inputPath) + " --fn " + functionName;
  if (!wrtList.empty()) {
    cmd += " --wrt ";
    for (size_t i = 0; i < wrtList.size(); ++i) cmd += (i ? "," : "") + wrtList[i];
  }
  if (deterministic) cmd += " --deterministic";
  if (lineDirectives) cmd += " --line-directives";
  if (!buildDir.empty()) cmd += " -p " + buildDir;
  if (!compileArgs.empty()) cmd += " --";
  for (const std::string& a : compileArgs) cmd += " " + a;
  return cmd;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" || std::string(argv[1]) == "help") {
    std::cout << kOverview;
    return argc < 2 ? 1 : 0;
  }
  std::string mode = argv[1];
  if (mode == "--version") {
    std::cout << "adjoint " << ADJOINT_VERSION << "\n";
    return 0;
  }
  if (mode == "--list-passes") {
    listPasses();
    return 0;
  }
  if (mode == "definitions") return listDefinitions(argc, argv);
  if (mode != "grad" && mode != "jvp" && mode != "check" && mode != "train-step") {
    std::cerr << "error: unknown command '" << mode << "'\n\n" << kOverview;
    return 1;
  }
  // Flags after `--` go to the compiler, as with Clang's tools.
  std::vector<const char*> ours{"adjoint"};
  std::vector<std::string> compileArgs;
  bool afterDashes = false;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (!afterDashes && arg == "--")
      afterDashes = true;
    else if (afterDashes)
      compileArgs.push_back(arg);
    else if (arg.rfind("--print-after=", 0) == 0)
      printAfter.push_back(arg.substr(14));
    else if (arg.rfind("--print-before=", 0) == 0)
      printBefore.push_back(arg.substr(15));
    else if (arg == "--time-passes")
      timePasses = true;
    else
      ours.push_back(argv[i]);
  }
  for (const std::vector<std::string>* names : {&printBefore, &printAfter})
    for (const std::string& name : *names)
      if (!adjoint::driver::isPassName(name)) {
        std::cerr << "error: no pass named '" << name << "'; `adjoint --list-passes` lists them\n";
        return 1;
      }
  if (mode == "check")
    cl::HideUnrelatedOptions({&category, &checkCategory, &trainCategory});
  else if (mode == "train-step")
    cl::HideUnrelatedOptions({&category, &trainCategory});
  else
    cl::HideUnrelatedOptions(category);
  std::string overview = "adjoint " + mode + ": " +
                         (mode == "grad"         ? "reverse mode (gradients, vector-Jacobian products)"
                          : mode == "jvp"        ? "forward mode (Jacobian-vector products)"
                          : mode == "train-step" ? "a training step of host code (forward, gradient, update)"
                                                 : "verify the derivatives of a function numerically");
  if (!cl::ParseCommandLineOptions(static_cast<int>(ours.size()), ours.data(), overview, &llvm::errs())) return 1;
  if (emitKind != "source" && emitKind != "ir") {
    std::cerr << "error: --emit must be 'source' or 'ir'\n";
    return 1;
  }
  PipelineOptions o;
  o.sourcePath = inputPath;
  o.compileArgs = compileArgs;
  o.buildDir = buildDir;
  o.function = functionName;
  o.wrt.assign(wrtList.begin(), wrtList.end());
  o.mode = mode == "jvp" ? adjoint::derive::Mode::Forward : adjoint::derive::Mode::Reverse;
  o.printBefore = printBefore;
  o.printAfter = printAfter;
  o.timePasses = timePasses;
  o.deterministic = deterministic;
  if (mode == "train-step" || (mode == "check" && !trainedParams.empty())) {
    if (trainedParams.empty()) {
      std::cerr << "error: train-step needs --params: the buffers it trains\n";
      return 1;
    }
    if (!adjoint::derive::isOptimizer(optimizer)) {
      std::cerr << "error: unknown optimizer '" << optimizer << "'; sgd, momentum or adamw\n";
      return 1;
    }
    o.train =
        adjoint::derive::TrainStep{{trainedParams.begin(), trainedParams.end()}, optimizer, lossName, deterministic};
  }
  std::string out = outputPath.empty() ? defaultOutput(inputPath, mode) : std::string(outputPath);
  // `-o -`: the source to standard output, without a header (it includes none: what the header
  // declares, the source defines).
  bool toStdout = out == "-";
  o.emit.headerName = toStdout ? "" : baseName(headerPath(out));
  o.emit.command = commandLine(mode, compileArgs);
  o.emit.lineDirectives = lineDirectives;
  if (!std::ifstream(inputPath)) {
    std::cerr << "error: cannot read '" << inputPath << "': " << std::strerror(errno) << "\n";
    return 1;
  }
  if (mode == "check") {
    adjoint::driver::CheckOptions check{o,
                                        seed,
                                        std::vector<long>(intValues.begin(), intValues.end()),
                                        arrayLength,
                                        blockSize,
                                        gridSize,
                                        onGpu,
                                        emitHarness,
                                        keep,
                                        std::vector<std::string>(ranges.begin(), ranges.end())};
    return adjoint::driver::runCheck(check);
  }
  std::optional<adjoint::driver::PipelineResult> result;
  adjoint::driver::runWithLargeStack([&] { result = adjoint::driver::runPipeline(o); });
  if (!result) return 1;
  if (emitKind == "ir") {
    adjoint::ir::Module derived;
    derived.functions = result->derivatives;
    std::cout << "// prepared forward IR\n"
              << adjoint::ir::print(result->prepared) << "// derivatives\n"
              << adjoint::ir::print(derived);
    return 0;
  }
  if (toStdout) {
    std::cout << result->output.source;
    return std::cout.flush() ? 0 : 1;
  }
  std::vector<std::pair<std::string, std::string>> files{{out, result->output.source},
                                                         {headerPath(out), result->output.header}};
  if (!depfile.empty()) files.emplace_back(depfile, makeDepfile(out, headerPath(out), result->dependencies));
  return writeOutputs(files) ? 0 : 1;
}
