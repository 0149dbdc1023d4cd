// The functions a source file defines, read by Clang's raw lexer: no preprocessing, so no include
// paths or definitions are needed, which lets a build system ask before it knows a target's flags
// (adjoint_generate with several SOURCES finds the source of each function this way).
//
// A definition is a name followed by its parameter list and, before any `;`, a body `{`, at
// namespace scope or in a class body. Braces after `namespace`, `struct`, `class`, `union`,
// `enum` or `extern "..."` open such scopes (their names qualify the functions inside); every
// other brace opens a body or an initializer, whose contents are not declarations.
#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>

#include <set>

#include "ad/frontend/Frontend.h"

namespace adjoint::frontend {

namespace {

using clang::Token;
namespace tok = clang::tok;

bool isIdentifier(const Token& t) { return t.is(tok::raw_identifier); }
bool isWord(const Token& t, const char* word) { return isIdentifier(t) && t.getRawIdentifier() == word; }

// Names that take parentheses in a declaration without being the declared function.
bool isDeclarationKeyword(llvm::StringRef name) {
  static const std::set<llvm::StringRef> words{"decltype", "alignas",       "__attribute__", "__declspec",
                                               "noexcept", "sizeof",        "alignof",       "requires",
                                               "operator", "static_assert", "throw",         "__launch_bounds__"};
  return words.count(name) > 0;
}

// The tokens of `text`, without preprocessor directives.
std::vector<Token> tokensOf(llvm::StringRef text) {
  clang::LangOptions lang;
  lang.CPlusPlus = lang.CPlusPlus11 = lang.CPlusPlus14 = lang.CPlusPlus17 = lang.CPlusPlus20 = true;
  lang.LineComment = true;
  clang::Lexer lexer(clang::SourceLocation(), lang, text.begin(), text.begin(), text.end());
  std::vector<Token> tokens;
  bool inDirective = false;
  for (Token t; !lexer.LexFromRawLexer(t) || t.isNot(tok::eof);) {
    if (t.isAtStartOfLine()) inDirective = t.is(tok::hash);
    if (!inDirective) tokens.push_back(t);
    if (t.is(tok::eof)) break;
  }
  return tokens;
}

// The index of the `<` that opens the template arguments closed at tokens[close]; 0 if none.
size_t openingAngle(const std::vector<Token>& tokens, size_t close) {
  int depth = 0;
  for (size_t k = close; k > 0; --k) {
    depth += tokens[k].is(tok::greater) + 2 * tokens[k].is(tok::greatergreater) - tokens[k].is(tok::less);
    if (depth <= 0) return k;
  }
  return 0;
}

// The name that ends at tokens[end], with its qualifiers and without template arguments (A::f of
// A::f, A<T>::f or A::f<double>); "" if none.
std::string qualifiedName(const std::vector<Token>& tokens, size_t end) {
  if (size_t open = tokens[end].is(tok::greater) ? openingAngle(tokens, end) : 0; open > 0) end = open - 1;
  if (!isIdentifier(tokens[end]) || isDeclarationKeyword(tokens[end].getRawIdentifier())) return "";
  std::string name = tokens[end].getRawIdentifier().str();
  size_t k = end;
  while (k >= 2 && tokens[k - 1].is(tok::coloncolon)) {
    size_t scope = k - 2;
    if (tokens[scope].is(tok::greater)) {  // A<T>::f: skip the template arguments
      scope = openingAngle(tokens, scope);
      if (scope == 0) break;
      --scope;
    }
    if (!isIdentifier(tokens[scope])) break;
    name = tokens[scope].getRawIdentifier().str() + "::" + name;
    k = scope;
  }
  return name;
}

// The index of the `>` that closes the template parameter list opened at tokens[open].
size_t closingAngle(const std::vector<Token>& tokens, size_t open) {
  int depth = 0;
  for (size_t k = open; k < tokens.size(); ++k) {
    depth += tokens[k].is(tok::less) - tokens[k].is(tok::greater) - 2 * tokens[k].is(tok::greatergreater);
    if (depth <= 0) return k;
  }
  return tokens.size() - 1;
}

// The index of the token that closes the parenthesis opened at tokens[open].
size_t closingParen(const std::vector<Token>& tokens, size_t open) {
  int depth = 0;
  for (size_t k = open; k < tokens.size(); ++k) {
    depth += tokens[k].is(tok::l_paren) - tokens[k].is(tok::r_paren);
    if (depth == 0) return k;
  }
  return tokens.size() - 1;
}

class DefinitionScanner {
 public:
  explicit DefinitionScanner(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  std::vector<std::string> run() {
    for (size_t k = 0; k < tokens_.size(); ++k) k = step(k);
    return found_;
  }

 private:
  struct Scope {
    bool body;         // a function's body or an initializer: nothing inside is a declaration
    std::string name;  // a named namespace's or class's
  };
  std::vector<Token> tokens_;
  std::vector<Scope> scopes_;
  std::vector<std::string> found_;
  bool scopeHead_ = false;  // after namespace, struct, ... until its `{` or `;`
  std::string scopeName_;
  std::string candidate_;  // the first name followed by parentheses in this declaration

  bool inBody() const { return !scopes_.empty() && scopes_.back().body; }

  // Reads tokens_[k]; returns the index of the last token it consumed.
  size_t step(size_t k) {
    const Token& t = tokens_[k];
    if (t.is(tok::l_brace)) {
      open();
    } else if (t.is(tok::r_brace)) {
      if (!scopes_.empty()) scopes_.pop_back();
      candidate_.clear();
    } else if (inBody()) {
      return k;
    } else if (t.is(tok::semi)) {
      scopeHead_ = false;
      candidate_.clear();
    } else if (isWord(t, "template") && k + 1 < tokens_.size() && tokens_[k + 1].is(tok::less)) {
      return closingAngle(tokens_, k + 1);  // its parameters (`class T` declares no class)
    } else if (isWord(t, "extern") && k + 2 < tokens_.size() && tokens_[k + 1].is(tok::string_literal) &&
               tokens_[k + 2].is(tok::l_brace)) {
      scopeHead_ = true;  // extern "C" { ... }
      scopeName_.clear();
      return k + 1;
    } else if (isWord(t, "namespace") || isWord(t, "struct") || isWord(t, "class") || isWord(t, "union") ||
               isWord(t, "enum")) {
      scopeHead_ = true;
      scopeName_.clear();
    } else if (scopeHead_ && isIdentifier(t) && scopeName_.empty()) {
      scopeName_ = qualifiedTail(k);
    } else if (t.is(tok::l_paren)) {
      if (candidate_.empty() && k > 0) candidate_ = qualifiedName(tokens_, k - 1);
      return closingParen(tokens_, k);
    }
    return k;
  }

  // A scope's name, A::B of namespace A::B: read from its first identifier.
  std::string qualifiedTail(size_t k) {
    std::string name = tokens_[k].getRawIdentifier().str();
    for (; k + 2 < tokens_.size() && tokens_[k + 1].is(tok::coloncolon) && isIdentifier(tokens_[k + 2]); k += 2)
      name += "::" + tokens_[k + 2].getRawIdentifier().str();
    return name;
  }

  void open() {
    if (inBody()) {
      scopes_.push_back({true, ""});
      return;
    }
    if (scopeHead_) {
      scopes_.push_back({false, scopeName_});
    } else {
      if (!candidate_.empty()) found_.push_back(enclosingNames() + candidate_);
      scopes_.push_back({true, ""});
    }
    scopeHead_ = false;
    candidate_.clear();
  }

  std::string enclosingNames() const {
    std::string names;
    for (const Scope& s : scopes_)
      if (!s.name.empty()) names += s.name + "::";
    return names;
  }
};

}  // namespace

std::vector<std::string> definedFunctions(const std::string& text) { return DefinitionScanner(tokensOf(text)).run(); }

}  // namespace adjoint::frontend
