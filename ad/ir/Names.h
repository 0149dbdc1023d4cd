// Fresh names for what passes create (temporaries, offsets, sums), and substitution of variables.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>

#include "ad/ir/Function.h"

namespace adjoint::ir {

// The names taken in a function; `fresh` hands out new ones.
class NameSet {
 public:
  NameSet() = default;
  // The parameters and every local the function declares.
  explicit NameSet(const Function& f);
  void insert(const std::string& name) { taken_.insert(name); }
  bool contains(const std::string& name) const { return taken_.count(name) > 0; }
  // `base` when free, else base_2, base_3, ...; taken from then on.
  std::string fresh(const std::string& base);

 private:
  std::set<std::string> taken_;
};

// `e` with each variable x for which `replace(x)` returns an expression replaced by it.
ExprPtr substitute(const ExprPtr& e, const std::function<ExprPtr(const Expr& variable)>& replace);
// The same for every expression of the statements, nested ones included.
void substitute(StmtList& body, const std::function<ExprPtr(const Expr& variable)>& replace);
// Variables by name.
void substitute(StmtList& body, const std::map<std::string, ExprPtr>& values);

}  // namespace adjoint::ir
