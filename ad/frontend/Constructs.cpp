#include "ad/frontend/Constructs.h"

#include <cctype>
#include <map>

namespace adjoint::frontend {

std::string constructName(const clang::Stmt* s) {
  static const std::map<std::string, std::string> names{
      {"CXXForRangeStmt", "a range-based for loop"},
      {"SwitchStmt", "switch"},
      {"CXXNewExpr", "new"},
      {"CXXDeleteExpr", "delete"},
      {"StringLiteral", "a string literal"},
      {"CharacterLiteral", "a character literal"},
      {"CXXThisExpr", "'this'"},
      {"UnaryExprOrTypeTraitExpr", "sizeof or alignof"},
      {"InitListExpr", "a braced initializer list"},
      {"CXXStdInitializerListExpr", "an initializer list"},
      {"CXXOperatorCallExpr", "an overloaded operator"},
      {"CXXConstructExpr", "a constructor call"},
      {"CXXTemporaryObjectExpr", "a temporary object"},
      {"CXXFunctionalCastExpr", "a functional cast"},
      {"StmtExpr", "a statement expression"},
      {"CXXTypeidExpr", "typeid"},
      {"CXXNullPtrLiteralExpr", "nullptr"},
      {"GNUNullExpr", "NULL"},
      {"CompoundLiteralExpr", "a compound literal"},
      {"CXXScalarValueInitExpr", "a value initialization"},
      {"ImplicitValueInitExpr", "a value initialization"},
      {"BinaryConditionalOperator", "?: without a middle operand"},
      {"OffsetOfExpr", "offsetof"},
      {"VAArgExpr", "va_arg"},
      {"PredefinedExpr", "__func__"},
      {"UserDefinedLiteral", "a user-defined literal"},
      {"AttributedStmt", "a statement with attributes"},
      {"CoroutineBodyStmt", "a coroutine"},
      {"CoreturnStmt", "co_return"},
      {"CoawaitExpr", "co_await"},
  };
  std::string cls = s->getStmtClassName();
  if (auto it = names.find(cls); it != names.end()) return it->second;
  // Otherwise the class name in words: CXXFoldExpr is "a fold expression".
  std::string words;
  std::string rest = cls.rfind("CXX", 0) == 0 ? cls.substr(3) : cls;
  for (std::string suffix : {"Stmt", "Expr"})
    if (rest.size() > suffix.size() && rest.compare(rest.size() - suffix.size(), suffix.size(), suffix) == 0)
      rest = rest.substr(0, rest.size() - suffix.size()) + (suffix == "Stmt" ? " statement" : " expression");
  for (size_t k = 0; k < rest.size(); ++k) {
    bool boundary = k > 0 && std::isupper(static_cast<unsigned char>(rest[k])) &&
                    std::islower(static_cast<unsigned char>(rest[k - 1]));
    words +=
        (boundary ? " " : "") + std::string(1, static_cast<char>(std::tolower(static_cast<unsigned char>(rest[k]))));
  }
  return "a " + words;
}

}  // namespace adjoint::frontend
