// One pass of the pipeline (the table in driver/Pipeline.cpp).
#pragma once

#include "ad/ir/Function.h"

namespace adjoint::transforms {

// A generated function the user calls takes a parameter that is an array of arrays (T a[][3])
// as the caller passes it, `const double (*a_rows)[3]`, and its body indexes it as one array,
// row after row, through `const double *a = a_rows[0];` (see ir::Type::rowExtents).
void takeRowParameters(ir::Function& g);

}  // namespace adjoint::transforms
