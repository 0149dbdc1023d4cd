#include "ad/frontend/Frontend.h"

#include <clang/Basic/Stack.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>

#include "BuiltinHeaders.inc"
#include "ad/frontend/AstToIr.h"
#include "ad/frontend/Tool.h"

#ifndef ADJOINT_CUDA_PATH
#error "ADJOINT_CUDA_PATH must name the CUDA toolkit's root"
#endif
#ifndef ADJOINT_CLANG_RESOURCE_DIR
#error "ADJOINT_CLANG_RESOURCE_DIR must name Clang's resource directory"
#endif

namespace adjoint::frontend {

namespace {

bool isCudaSource(const ParseRequest& request) {
  llvm::StringRef path(request.sourcePath);
  return path.ends_with(".cu") || path.ends_with(".cuh");
}

// A .cu file is parsed as CUDA for the host, with the real toolkit headers: kernels' bodies are
// parsed all the same, and nothing needs a GPU or libdevice. nvcc finds the CUDA C++ library
// (cuda/std/..., which <cooperative_groups.h> includes) in include/cccl; Clang's driver does not.
std::vector<std::string> cudaArguments() {
  const char* env = std::getenv("CUDA_PATH");
  std::string root = env && *env ? env : ADJOINT_CUDA_PATH;
  return {"-x",
          "cuda",
          "--cuda-host-only",
          "--cuda-path=" + root,
          "-isystem",
          root + "/include/cccl",
          "-nocudalib",
          "--cuda-gpu-arch=sm_90",
          "-Wno-unknown-cuda-version"};
}

std::unique_ptr<clang::tooling::CompilationDatabase> compilationDatabase(const ParseRequest& request) {
  if (!request.buildDir.empty()) {
    std::string error;
    auto db = clang::tooling::CompilationDatabase::loadFromDirectory(request.buildDir, error);
    if (!db) llvm::errs() << "error: " << error << "\n";
    return db;
  }
  return std::make_unique<clang::tooling::FixedCompilationDatabase>(".", request.compileArgs);
}

}  // namespace

ParsedUnit::ParsedUnit(const ParseRequest& request)
    : printer_(std::make_unique<clang::TextDiagnosticPrinter>(llvm::errs(), options_)) {
  // Lets Clang's semantic analysis move to a fresh stack when deeply nested input needs one.
  clang::noteBottomOfStack();
  auto db = compilationDatabase(request);
  if (!db) return;
  clang::tooling::ClangTool tool(*db, {request.sourcePath});
  for (const auto& header : kBuiltinHeaders) tool.mapVirtualFile(header.path, header.text);
  if (request.sourceText) tool.mapVirtualFile(request.sourcePath, *request.sourceText);
  tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
      {"-resource-dir", ADJOINT_CLANG_RESOURCE_DIR, "-idirafter", kBuiltinIncludeDir, "-include", kBuiltinRulesPath},
      clang::tooling::ArgumentInsertPosition::END));
  if (isCudaSource(request)) {
    tool.appendArgumentsAdjuster(
        clang::tooling::getInsertArgumentAdjuster(cudaArguments(), clang::tooling::ArgumentInsertPosition::BEGIN));
    tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
        {"-include", kBuiltinCudaStoresPath}, clang::tooling::ArgumentInsertPosition::END));
  }
  tool.setPrintErrorMessage(false);
  // Any error, the compiler driver's too, stops the tool with nothing written: one printer counts them.
  tool.setDiagnosticConsumer(printer_.get());
  std::vector<std::unique_ptr<clang::ASTUnit>> asts;
  if (tool.buildASTs(asts) != 0 || asts.size() != 1 || failed()) return;
  ast_ = std::move(asts.front());
  // Diagnostics reported after parsing print the source line they point at.
  printer_->BeginSourceFile(ast_->getLangOpts(), &ast_->getPreprocessor());
}

ParsedUnit::~ParsedUnit() {
  if (ast_) printer_->EndSourceFile();
}

std::optional<ir::Module> parse(const ParseRequest& request) {
  ParsedUnit unit(request);
  if (!unit.ast()) return std::nullopt;
  std::optional<ir::Module> module = convertToIr(unit.ast()->getASTContext(), request.functions);
  if (!module || unit.failed()) return std::nullopt;
  module->sourcePath = request.sourcePath;
  return module;
}

}  // namespace adjoint::frontend
