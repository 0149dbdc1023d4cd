#include <clang/Format/Format.h>
#include <clang/Tooling/Core/Replacement.h>

#include "ad/frontend/Frontend.h"

namespace adjoint::frontend {

std::string formatCpp(const std::string& code, const std::string& fileName) {
  clang::format::FormatStyle style = clang::format::getLLVMStyle();
  style.ColumnLimit = 100;
  // Comments keep their lines: a parameter's documentation stays on its own lines, and a comment
  // quoting a forward line quotes it whole.
  style.ReflowComments = clang::format::FormatStyle::RCS_Never;
  std::vector<clang::tooling::Range> ranges{clang::tooling::Range(0, code.size())};
  clang::tooling::Replacements fixes = clang::format::reformat(style, code, ranges, fileName);
  llvm::Expected<std::string> formatted = clang::tooling::applyAllReplacements(code, fixes);
  if (!formatted) {
    llvm::consumeError(formatted.takeError());
    return code;  // unformatted but correct: formatting is cosmetic
  }
  return *formatted;
}

}  // namespace adjoint::frontend
