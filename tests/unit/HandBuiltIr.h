// What the unit tests that build IR by hand share: the types they spell, and a kernel to fill.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ad/ir/Function.h"

namespace adjoint::handbuilt {

inline const ir::Type kFloat = ir::Type::of(ir::Scalar::Float);
inline const ir::Type kDouble = ir::Type::of(ir::Scalar::Double);
inline const ir::Type kInt = ir::Type::integer();
inline const ir::Type kUnsigned = ir::Type::integer("unsigned int", true);
inline const ir::Type kFloats = kFloat.pointerTo(false);

// A __global__ function (not also __host__) named `name`, returning void.
inline ir::Function kernel(std::string name, std::vector<ir::Param> params, ir::StmtList body = {}) {
  ir::Function f;
  f.name = std::move(name);
  f.kernel = true;
  f.host = false;
  f.returnType = ir::Type::of(ir::Scalar::Void);
  f.params = std::move(params);
  f.body = std::move(body);
  return f;
}

}  // namespace adjoint::handbuilt
