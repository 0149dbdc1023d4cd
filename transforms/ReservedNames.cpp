#include "transforms/ReservedNames.h"

#include <map>

#include "ad/ir/Names.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

bool reserved(const std::string& name) {
  for (const char* suffix : {"_bar", "_dot", "_tape", "_bar_acc", "_bar_new"})
    if (endsWith(name, suffix)) return true;
  bool loopCounter =
      name.rfind("k_L", 0) == 0 && name.size() > 3 && name.find_first_not_of("0123456789", 3) == std::string::npos;
  return loopCounter || name == "block_sums" || name == "virtual_block" || name == "virtual_blocks";
}

}  // namespace

void renameReservedNames(Function& f) {
  NameSet names(f);
  std::map<std::string, std::string> renamed;
  auto rename = [&](std::string& name) {
    if (!reserved(name)) return;
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
