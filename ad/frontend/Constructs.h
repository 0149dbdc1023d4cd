// The names of C++ constructs in words, for diagnostics: "a range-based for loop", not
// CXXForRangeStmt.
#pragma once

#include <clang/AST/Stmt.h>

#include <string>

namespace adjoint::frontend {

// What `s` is, in words a C++ programmer uses ("a range-based for loop", "new").
std::string constructName(const clang::Stmt* s);

}  // namespace adjoint::frontend
