// A user-facing error found after parsing (by a transform or by differentiation). The driver
// prints it the way Clang prints its own: file:line:col, the source line, a caret, a note.
#pragma once

#include <stdexcept>
#include <string>

#include "ad/ir/Stmt.h"

namespace adjoint::ir {

struct Diagnostic : std::runtime_error {
  Diagnostic(SourceLoc where, const std::string& message, std::string hint)
      : std::runtime_error(message), loc(where), hint(std::move(hint)) {}
  SourceLoc loc;
  std::string hint;
};

// A broken invariant of Adjoint itself, not a problem of the user's code: reported as an internal
// error with a request to report it, never as a diagnostic about the input.
struct InternalError : std::logic_error {
  explicit InternalError(const std::string& what) : std::logic_error(what) {}
};

}  // namespace adjoint::ir
