// The IR's textual form is C++: the printer is used by `--emit=ir`, by the stage dumps, and by
// codegen, which adds the file framing and formatting around it.
#pragma once

#include <string>

#include "ad/ir/Function.h"

namespace adjoint::ir {

struct PrintOptions {
  // When set, `#line N "lineFile"` precedes each statement that comes from forward line N, so
  // that debuggers and compiler messages point at the forward source.
  std::string lineFile;
};

std::string print(const Expr& e);
// An element as a place to store into or take the address of: x[i] even where its value is read
// widened from 16-bit storage (__bfloat162float(x[i])).
std::string printPlace(const Expr& e);
std::string print(const StmtList& body, int indent = 0, const PrintOptions& options = {});
// The declaration (or, with `definition`, the definition's head: unused parameters marked).
std::string printSignature(const Function& f, bool definition = false);
std::string print(const Function& f, const PrintOptions& options = {});
std::string print(const Module& m);

}  // namespace adjoint::ir
