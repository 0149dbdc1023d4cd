#include "transforms/ReservedNames.h"

#include <map>

#include "ad/ir/Names.h"
#include "ad/ir/Naming.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

}  // namespace

void renameReservedNames(Function& f) {
  NameSet names(f);
  std::map<std::string, std::string> renamed;
  auto rename = [&](std::string& name) {
    if (!naming::isReserved(name)) return;
    auto it = renamed.find(name);
    name = it != renamed.end() ? it->second : (renamed[name] = names.fresh(name + "_"));
  };
  for (Param& p : f.params) rename(p.name);
  walk(f.body, [&](Stmt& s) {
    if (s.kind == StmtKind::Decl) rename(s.name);
  });
  if (renamed.empty()) return;
  substitute(f.body, [&](const Expr& v) -> ExprPtr {
    auto it = renamed.find(v.text);
    return it == renamed.end() ? nullptr : var(it->second, v.type);
  });
}

}  // namespace adjoint::transforms
