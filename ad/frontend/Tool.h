// Running a Clang action over the source of a request, with the arguments Adjoint parses with
// (CUDA for the host, its builtin headers and rules). Internal to ad/frontend.
#pragma once

#include <clang/Tooling/Tooling.h>

#include "ad/frontend/Frontend.h"

namespace adjoint::frontend {

// True when the source parsed without an error; Clang-style diagnostics were printed otherwise.
bool runTool(const ParseRequest& request, clang::tooling::FrontendActionFactory& factory);

}  // namespace adjoint::frontend
