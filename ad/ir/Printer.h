// The IR's textual form is C++: the printer is used by `--emit=ir`, by the stage dumps, and by
// codegen, which adds the file framing and formatting around it.
#pragma once

#include <string>

#include "ad/ir/Function.h"

namespace adjoint::ir {

std::string print(const Expr& e);
std::string print(const StmtList& body, int indent = 0);
std::string printSignature(const Function& f);
std::string print(const Function& f);
std::string print(const Module& m);

}  // namespace adjoint::ir
