// The frontend: parses a C++ translation unit with Clang and converts the requested functions,
// and every function they call, to IR. This header is free of Clang types; only the files of
// ad/frontend include Clang headers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ad/ir/Function.h"

namespace adjoint::frontend {

struct ParseRequest {
  std::string sourcePath;
  std::optional<std::string> sourceText;  // the file's text, when it is not to be read from disk
  std::vector<std::string> compileArgs;   // flags after `--`
  std::string buildDir;                   // `-p`: directory holding compile_commands.json
  std::vector<std::string> functions;     // roots to convert (their callees follow); empty: all
};

// The module holding the requested functions and their callees, or nothing when the source does
// not parse or uses what Adjoint cannot differentiate; Clang-style diagnostics were printed then.
std::optional<ir::Module> parse(const ParseRequest& request);

// The request's source with each kernel launch K<<<grid, block, shmem, stream>>>(args) written
// adjoint::launch(K, grid, block, shmem, stream, args) (adjoint/cuda.h), so that a host compiler
// builds it for the CPU execution of kernels; nothing when it does not parse.
std::optional<std::string> launchesAsCalls(const ParseRequest& request);

// The functions the source text defines, with the namespaces and classes around them (energy,
// Anchor::pull, ns::f), read without preprocessing: no flags needed (Definitions.cpp).
std::vector<std::string> definedFunctions(const std::string& text);

// Formats C++ source with libFormat (LLVM style, 100 columns).
std::string formatCpp(const std::string& code, const std::string& fileName);

}  // namespace adjoint::frontend
