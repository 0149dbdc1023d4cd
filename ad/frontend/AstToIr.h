// Conversion of Clang's AST to the IR, with a diagnostic for everything Adjoint does not support.
#pragma once

#include <clang/AST/ASTContext.h>

#include <optional>
#include <string>
#include <vector>

#include "ad/ir/Function.h"

namespace adjoint::frontend {

// Converts the functions named in `roots` (all the main file defines when empty) and,
// transitively, the functions they call. Returns
// nothing after reporting errors through the context's DiagnosticsEngine.
std::optional<ir::Module> convertToIr(clang::ASTContext& context, const std::vector<std::string>& roots);

}  // namespace adjoint::frontend
