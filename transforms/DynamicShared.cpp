#include "transforms/DynamicShared.h"

#include <vector>

namespace adjoint::transforms {

using namespace ir;

namespace {

bool isDynamicShared(const Stmt& s) { return s.kind == StmtKind::Decl && s.type.shared && s.type.pointer; }

}  // namespace

void placeDynamicShared(Function& d) {
  std::vector<Stmt*> arrays;
  walk(d.body, [&](Stmt& s) {
    if (isDynamicShared(s)) arrays.push_back(&s);
  });
  if (arrays.empty()) return;
  d.dynamicSharedParts = static_cast<unsigned>(arrays.size());
  Type u = Type::integer("unsigned", true);
  for (size_t k = 0; k < arrays.size(); ++k) {
    Stmt& s = *arrays[k];
    s.expr = call("adjoint::dynamic_shared<" + s.type.scalarSpelling() + ">",
                  {number(static_cast<double>(k), u), number(d.dynamicSharedParts, u)}, s.type);
  }
}

}  // namespace adjoint::transforms
