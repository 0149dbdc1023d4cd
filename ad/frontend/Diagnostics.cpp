#include "ad/frontend/Diagnostics.h"

namespace adjoint::frontend {

void Reporter::error(clang::SourceRange range, const std::string& message, const std::string& hint) {
  if (!reported_.emplace(range.getBegin().getRawEncoding(), message).second) return;
  ++errors_;
  unsigned errorId = diags_.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0");
  diags_.Report(range.getBegin(), errorId) << message << range;
  if (hint.empty()) return;
  unsigned noteId = diags_.getCustomDiagID(clang::DiagnosticsEngine::Note, "%0");
  diags_.Report(range.getBegin(), noteId) << hint;
}

}  // namespace adjoint::frontend
