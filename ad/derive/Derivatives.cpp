#include "ad/derive/Derivatives.h"

#include "ad/derive/ForwardMode.h"
#include "ad/derive/HostLevel.h"
#include "ad/derive/ReverseMode.h"
#include "ad/ir/Diagnostic.h"

namespace adjoint::derive {

using namespace ir;

std::vector<Function> differentiate(const Module& prepared, const Request& entry, Mode mode) {
  const Function* f = prepared.find(entry.function);
  if (!f) throw InternalError("differentiating '" + entry.function + "', which the prepared module lacks");
  Request first = entry;
  first.wrt.clear();
  for (const Param* p : differentiatedParams(*f, entry.wrt)) first.wrt.insert(p->name);
  Requests q;
  q.enqueueEntry(*f, first, mode);
  std::vector<Function> out;
  for (Request r; q.next(r);) {
    const Function& g = *prepared.find(r.function);
    if (isHostLevel(g, prepared))
      out.push_back(hostDerivative(prepared, g, r, q, mode));
    else
      out.push_back(mode == Mode::Forward ? forwardFunction(prepared, g, r, q) : reverseFunction(prepared, g, r, q));
    // A kernel's derivatives are kernels, a device function's are device functions.
    out.back().kernel = g.kernel;
    out.back().device = g.device;
    out.back().host = g.host;
    out.back().oneDimensionalBlocks = g.oneDimensionalBlocks;
  }
  return out;
}

}  // namespace adjoint::derive
