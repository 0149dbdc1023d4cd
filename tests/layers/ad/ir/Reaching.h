// A fixture of the layering check (cmake/CheckLayers.cmake): the IR may not include a pass.
#pragma once

#include "ad/ir/Expr.h"
#include "transforms/Simplify.h"
