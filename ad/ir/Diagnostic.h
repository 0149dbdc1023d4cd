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

}  // namespace adjoint::ir
