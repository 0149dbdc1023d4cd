#include "transforms/RowParameters.h"

#include "ad/ir/Names.h"

namespace adjoint::transforms {

using namespace ir;

void takeRowParameters(Function& g) {
  if (g.internal) return;  // (called by generated code, with the one array it indexes)
  NameSet names(g);
  StmtList prologue;
  for (Param& p : g.params) {
    if (p.type.rowExtents.empty()) continue;
    std::string flat = p.name;
    p.name = names.fresh(flat + "_rows");
    if (p.unused) continue;
    Type pointer = p.type.pointerTo(p.type.constPointee);  // (without the extents)
    ExprPtr first = var(p.name, p.type);
    for (size_t k = 0; k < p.type.rowExtents.size(); ++k) first = index(first, number(0, Type::integer()));
    prologue.push_back(decl(flat, pointer, first));
  }
  g.body.insert(g.body.begin(), prologue.begin(), prologue.end());
}

}  // namespace adjoint::transforms
