// Derivatives of host code over kernels: a host function that launches kernels, seen at the
// tensor level as a sequence of functions from buffers to buffers.
//
// f_vjp runs the forward sweep it needs, in copies of the buffers f writes (the caller's
// buffers are left as they came in), keeping each value a later pullback needs in a version of
// its own; then launches the kernels' vjps in reverse order, each with its forward's launch
// configuration and the buffers as they were before its forward launch. f_jvp launches the
// kernels' jvps in order, in copies of the buffers f writes.
#pragma once

#include "ad/derive/Requests.h"

namespace adjoint::derive {

// Whether `f` is host code: it launches kernels, calls cuBLAS, or calls host code of `m`.
bool isHostLevel(const ir::Function& f, const ir::Module& m);

// The buffers of host code f and how many elements of each its steps touch, as expressions over
// f's parameters and its locals (in `locals`, f's own declarations): what a caller allocates.
struct HostBufferSizes {
  ir::StmtList locals;
  std::vector<std::pair<std::string, ir::ExprPtr>> elements;
};
HostBufferSizes hostBufferSizes(const ir::Module& m, const ir::Function& f);

ir::Function hostDerivative(const ir::Module& m, const ir::Function& f, const Request& r, Requests& q, Mode mode);

}  // namespace adjoint::derive
