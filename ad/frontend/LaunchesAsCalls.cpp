#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include "ad/frontend/Frontend.h"
#include "ad/frontend/Tool.h"

namespace adjoint::frontend {

namespace {

// Writes each K<<<grid, block, shmem, stream>>>(args) of the main file as
// adjoint::launch(K, grid, block, shmem, stream, args): the CPU execution's form of a launch.
class LaunchRewriter : public clang::RecursiveASTVisitor<LaunchRewriter> {
 public:
  LaunchRewriter(clang::ASTContext& ctx, clang::Rewriter& rewriter) : ctx_(ctx), rewriter_(rewriter) {}

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr* launch) {
    const clang::SourceManager& sm = ctx_.getSourceManager();
    if (!sm.isWrittenInMainFile(launch->getBeginLoc()) || launch->getBeginLoc().isMacroID()) return true;
    std::string call = "adjoint::launch(" + text(launch->getCallee());
    const clang::CallExpr* config = launch->getConfig();
    for (unsigned i = 0; i < 4; ++i) {
      const clang::Expr* a = i < config->getNumArgs() ? config->getArg(i) : nullptr;
      call += ", " + (!a || clang::isa<clang::CXXDefaultArgExpr>(a) ? std::string("0") : text(a));
    }
    for (const clang::Expr* a : launch->arguments()) call += ", " + text(a);
    rewriter_.ReplaceText(launch->getSourceRange(), call + ")");
    return true;
  }

 private:
  std::string text(const clang::Expr* e) const {
    return clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(e->getSourceRange()),
                                       ctx_.getSourceManager(), ctx_.getLangOpts())
        .str();
  }

  clang::ASTContext& ctx_;
  clang::Rewriter& rewriter_;
};

}  // namespace

std::optional<std::string> launchesAsCalls(const ParseRequest& request) {
  ParsedUnit unit(request);
  if (!unit.ast()) return std::nullopt;
  clang::ASTContext& ctx = unit.ast()->getASTContext();
  clang::Rewriter rewriter(ctx.getSourceManager(), ctx.getLangOpts());
  LaunchRewriter(ctx, rewriter).TraverseDecl(ctx.getTranslationUnitDecl());
  clang::FileID main = ctx.getSourceManager().getMainFileID();
  const llvm::RewriteBuffer* rewritten = rewriter.getRewriteBufferFor(main);
  std::string out =
      rewritten ? std::string(rewritten->begin(), rewritten->end()) : ctx.getSourceManager().getBufferData(main).str();
  return "#include \"adjoint/cuda.h\"\n" + out;
}

}  // namespace adjoint::frontend
