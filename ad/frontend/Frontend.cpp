#include "ad/frontend/Frontend.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/Stack.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
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
// parsed all the same, and nothing needs a GPU or libdevice.
std::vector<std::string> cudaArguments() {
  const char* env = std::getenv("CUDA_PATH");
  std::string root = env && *env ? env : ADJOINT_CUDA_PATH;
  return {"-x",
          "cuda",
          "--cuda-host-only",
          "--cuda-path=" + root,
          "-nocudalib",
          "--cuda-gpu-arch=sm_90",
          "-Wno-unknown-cuda-version"};
}

// Converts the AST once it is complete and free of errors.
class ConvertConsumer : public clang::ASTConsumer {
 public:
  ConvertConsumer(const ParseRequest& request, std::optional<ir::Module>& out) : request_(request), out_(out) {}
  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) return;
    out_ = convertToIr(ctx, request_.functions);
  }

 private:
  const ParseRequest& request_;
  std::optional<ir::Module>& out_;
};

class ConvertAction : public clang::ASTFrontendAction {
 public:
  ConvertAction(const ParseRequest& request, std::optional<ir::Module>& out) : request_(request), out_(out) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<ConvertConsumer>(request_, out_);
  }

 private:
  const ParseRequest& request_;
  std::optional<ir::Module>& out_;
};

class ConvertActionFactory : public clang::tooling::FrontendActionFactory {
 public:
  ConvertActionFactory(const ParseRequest& request, std::optional<ir::Module>& out) : request_(request), out_(out) {}
  std::unique_ptr<clang::FrontendAction> create() override { return std::make_unique<ConvertAction>(request_, out_); }

 private:
  const ParseRequest& request_;
  std::optional<ir::Module>& out_;
};

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

// Runs `factory`'s action on the request's source with Adjoint's arguments: true when it parsed
// without an error (Clang-style diagnostics printed otherwise).
bool runTool(const ParseRequest& request, clang::tooling::FrontendActionFactory& factory) {
  // Lets Clang's semantic analysis move to a fresh stack when deeply nested input needs one.
  clang::noteBottomOfStack();
  auto db = compilationDatabase(request);
  if (!db) return false;
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
  // Every diagnostic, the compiler driver's too ("no such file or directory: '-I...'"), goes
  // through one printer that counts errors: any error stops the tool with nothing written.
  clang::DiagnosticOptions diagnosticOptions;
  clang::TextDiagnosticPrinter printer(llvm::errs(), diagnosticOptions);
  tool.setDiagnosticConsumer(&printer);
  return tool.run(&factory) == 0 && printer.getNumErrors() == 0;
}

std::optional<ir::Module> parse(const ParseRequest& request) {
  std::optional<ir::Module> module;
  ConvertActionFactory factory(request, module);
  if (!runTool(request, factory)) return std::nullopt;
  if (module) module->sourcePath = request.sourcePath;
  return module;
}

}  // namespace adjoint::frontend
