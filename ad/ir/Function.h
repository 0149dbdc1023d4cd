// Functions and modules of the IR: what the frontend produces and every later stage consumes.
#pragma once

#include <string>
#include <vector>

#include "ad/ir/Stmt.h"

namespace adjoint::ir {

struct Param {
  std::string name;
  Type type;
  bool nondifferentiable = false;  // marked by the user; never gets an adjoint
};

struct Function {
  std::string name;
  Type returnType;
  std::vector<Param> params;
  StmtList body;
  SourceLoc loc;
  bool internal = false;  // emitted with internal linkage (helpers of the generated TU)
  std::string doc;        // printed above the definition

  const Param* param(const std::string& n) const;
  bool returnsFloating() const { return returnType.isFloating(); }
};

struct Module {
  std::string sourcePath;
  std::vector<std::string> sourceLines;  // the forward source, for comments naming forward lines
  std::vector<Function> functions;

  const Function* find(const std::string& name) const;
  // The forward line `line` (1-based), trimmed; empty when unknown.
  std::string sourceLine(unsigned line) const;
};

}  // namespace adjoint::ir
