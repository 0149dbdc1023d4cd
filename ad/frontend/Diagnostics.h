// User-facing errors of the frontend, reported through Clang's DiagnosticsEngine so they carry
// file, line, column, the source line with a caret, and a note with what to do instead.
#pragma once

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceLocation.h>

#include <set>
#include <string>
#include <utility>

namespace adjoint::frontend {

class Reporter {
 public:
  explicit Reporter(clang::DiagnosticsEngine& diags) : diags_(diags) {}

  // error: <message>  +  note: <hint>, at `range`; once, where a construct is converted more than
  // once (a struct's element read per field).
  void error(clang::SourceRange range, const std::string& message, const std::string& hint);
  bool failed() const { return errors_ > 0; }

 private:
  clang::DiagnosticsEngine& diags_;
  int errors_ = 0;
  std::set<std::pair<clang::SourceLocation::UIntTy, std::string>> reported_;
};

}  // namespace adjoint::frontend
