// Parsing the source of a request with the arguments Adjoint parses with (CUDA for the host, its
// builtin headers and rules). Internal to ad/frontend.
#pragma once

#include <clang/Frontend/ASTUnit.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>

#include <memory>

#include "ad/frontend/Frontend.h"

namespace adjoint::frontend {

// A translation unit parsed by ClangTool::buildASTs, and the printer every diagnostic goes to:
// Clang's, the compiler driver's ("no such file or directory: '-I...'") and Adjoint's own, which
// are reported through the unit's DiagnosticsEngine while it is alive.
class ParsedUnit {
 public:
  explicit ParsedUnit(const ParseRequest& request);
  ~ParsedUnit();
  ParsedUnit(const ParsedUnit&) = delete;
  ParsedUnit& operator=(const ParsedUnit&) = delete;

  // The parsed unit; null when the source did not parse without an error (diagnostics printed).
  clang::ASTUnit* ast() const { return ast_.get(); }
  // Whether any error was reported, while parsing or since.
  bool failed() const { return printer_->getNumErrors() > 0; }

 private:
  clang::DiagnosticOptions options_;
  std::unique_ptr<clang::TextDiagnosticPrinter> printer_;
  std::unique_ptr<clang::ASTUnit> ast_;  // destroyed before the printer it reports to
};

}  // namespace adjoint::frontend
