// Reading derivative rules: the functions of namespace adjoint::rules (runtime/adjoint/rules.h, and
// the user's own), each a partial derivative of one function as one expression, over the
// function's parameters and, optionally, one more for the call's result; the other names
// those functions go by (sinf for sin); and linear rules (the warp shuffles: the argument a
// function is linear in, and its pullback).
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <cstring>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

// Finds the functions of namespace adjoint::rules, wherever the namespace is opened.
void Converter::collectRules(const DeclContext* dc, bool inRules) {
  for (const Decl* d : dc->decls()) {
    if (const auto* ns = dyn_cast<NamespaceDecl>(d)) {
      bool adjoint = ns->getName() == "adjoint" && isa<TranslationUnitDecl>(dc);
      if (adjoint ||
          (ns->getName() == "rules" && isa<NamespaceDecl>(dc) && cast<NamespaceDecl>(dc)->getName() == "adjoint" &&
           isa<TranslationUnitDecl>(cast<NamespaceDecl>(dc)->getParent())))
        collectRules(ns, !adjoint);
    } else if (const auto* fd = dyn_cast<FunctionDecl>(d); fd && inRules && fd->doesThisDeclarationHaveABody()) {
      ruleDecls_.push_back(fd);
    } else if (const auto* vd = dyn_cast<VarDecl>(d); vd && inRules && vd->getName().ends_with("_aliases")) {
      aliasDecls_.push_back(vd);
    } else if (const auto* vd = dyn_cast<VarDecl>(d); vd && inRules && vd->getName().ends_with("_linear")) {
      linearDecls_.push_back(vd);
    }
  }
}

// `inline constexpr const char* sin_aliases[] = {"sinf", "sinl"};`: sinf and sinl are sin under
// other names, differentiated by sin's rules.
void Converter::addAliases(const VarDecl* vd) {
  std::string target = vd->getName().drop_back(std::strlen("_aliases")).str();
  const auto* list = vd->getInit() ? dyn_cast<InitListExpr>(vd->getInit()->IgnoreImplicit()) : nullptr;
  if (!rules_.count(target) || !list) {
    fail(vd->getSourceRange(),
         "'" + vd->getNameAsString() + "' names other names of '" + target + "', which " +
             (list ? "has no derivative rule" : "are not a list of strings"),
         "declare the rules of " + target + " first, and list its other names as strings: {\"" + target + "f\"}");
    return;
  }
  for (const Expr* e : list->inits()) {
    if (const auto* name = dyn_cast<StringLiteral>(e->IgnoreImplicit())) {
      aliases_[name->getString().str()] = target;
    } else {
      fail(e->getSourceRange(), "an alias of '" + target + "' must be a string literal",
           "write it \"" + target + "f\"");
    }
  }
}

// `inline constexpr LinearRule __shfl_sync_linear = {1, "adjoint::shfl_sync_adjoint"};`: __shfl_sync
// is linear in its argument 1, and the adjoint of that argument is the pullback named.
void Converter::addLinearRule(const VarDecl* vd) {
  std::string target = vd->getName().drop_back(std::strlen("_linear")).str();
  const auto* list = vd->getInit() ? dyn_cast<InitListExpr>(vd->getInit()->IgnoreImplicit()) : nullptr;
  Expr::EvalResult argument;
  const auto* pullback =
      list && list->getNumInits() == 2 ? dyn_cast<StringLiteral>(list->getInit(1)->IgnoreImplicit()) : nullptr;
  if (!pullback || !list->getInit(0)->EvaluateAsInt(argument, ctx_)) {
    fail(vd->getSourceRange(), "the linear rule '" + vd->getNameAsString() + "' is not {argument, \"pullback\"}",
         "write it {1, \"my_pullback\"}: the argument the function is linear in, and the function sending its adjoint "
         "back");
    return;
  }
  ir::Rule& rule = rules_[target];
  rule.linearArgument = static_cast<int>(argument.Val.getInt().getExtValue());
  rule.pullback = pullback->getString().str();
}

bool Converter::readRules() {
  collectRules(ctx_.getTranslationUnitDecl(), false);
  for (const FunctionDecl* fd : ruleDecls_) addRule(fd, false);
  for (const VarDecl* vd : linearDecls_) addLinearRule(vd);
  // Rules call functions with rules, under any of their names: every name is known first.
  for (const VarDecl* vd : aliasDecls_) addAliases(vd);
  for (const FunctionDecl* fd : ruleDecls_) addRule(fd, true);
  return !report_.failed();
}

// `double f_dx(double x, double y) { return ...; }` is the partial of f with respect to x.
void Converter::addRule(const FunctionDecl* fd, bool convertBody) {
  std::string name = fd->getNameAsString();
  for (unsigned k = 0; k < fd->getNumParams(); ++k) {
    std::string suffix = "_d" + fd->getParamDecl(k)->getNameAsString();
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    std::string target = name.substr(0, name.size() - suffix.size());
    const auto* body = dyn_cast<CompoundStmt>(fd->getBody());
    const auto* ret = body && body->size() == 1 ? dyn_cast<ReturnStmt>(body->body_front()) : nullptr;
    if (!ret || !ret->getRetValue()) {
      if (convertBody) return;
      fail(fd->getSourceRange(), "the derivative rule '" + name + "' must be a single return statement",
           "write the partial derivative as one expression: `return ...;`");
      return;
    }
    ir::Rule& rule = rules_[target];
    if (convertBody) {
      readingRuleHelpers_ = &ruleHelpers_[target];
      rule.partials[k] = convertExpr(ret->getRetValue());
      readingRuleHelpers_ = nullptr;
      return;
    }
    std::vector<std::string> params;
    for (const ParmVarDecl* p : fd->parameters()) params.push_back(p->getNameAsString());
    if (!rule.params.empty() && rule.params != params) {
      fail(fd->getSourceRange(), "the rules of '" + target + "' disagree on its parameters",
           "give every rule of a function the same parameter names");
      return;
    }
    rule.params = params;
    rule.partials.resize(params.size());
    ruleSources_.emplace(target, fd);
    return;
  }
  if (convertBody) return;
  fail(fd->getSourceRange(), "'" + name + "' in namespace adjoint::rules names no parameter after _d",
       "name a rule <function>_d<parameter>, e.g. softclip_dx for the derivative of softclip(x) in x");
}

void Converter::declareExternal(const FunctionDecl* fd, const std::string& name) {
  for (const ir::Function& f : module_.externals)
    if (f.name == name) return;
  ir::Function f;
  f.name = name;
  if (auto t = convertType(fd->getReturnType(), fd->getReturnTypeSourceRange(), true)) f.returnType = *t;
  for (const ParmVarDecl* p : fd->parameters())
    if (auto t = convertType(p->getType(), p->getSourceRange())) f.params.push_back({p->getNameAsString(), *t});
  module_.externals.push_back(f);
}

// The parameter by which the rules of `key` name the call's result: a rule with one parameter
// more than the function `fd` names it by its last. Empty when they take the arguments alone.
std::string Converter::ruleResult(const ir::Rule& rule, const FunctionDecl* fd, const std::string& key) {
  auto source = ruleSources_.find(key);
  size_t arity = fd->getNumParams();
  if (source == ruleSources_.end() || rule.params.size() == arity) return {};  // (a linear rule alone: none)
  SourceRange where = source->second->getSourceRange();
  if (rule.params.size() != arity + 1) {
    fail(where,
         "the rules of '" + key + "' take " + std::to_string(rule.params.size()) + " parameters, but '" + key +
             "' takes " + std::to_string(arity),
         "give a rule the function's parameters, and optionally one more, last, for the call's result: "
         "tanh_dx(double x, double y) { return 1 - y * y; }");
    return {};
  }
  if (rule.partials.back()) {
    fail(where,
         "'" + rule.params.back() + "' is the result of '" + key + "', not one of its parameters: '" + key + "_d" +
             rule.params.back() + "' is no partial derivative",
         "differentiate with respect to the function's own parameters");
    return {};
  }
  return rule.params.back();
}

ir::ExprPtr Converter::ruleCall(const FunctionDecl* fd, const std::string& spelled, const std::string& key,
                                std::vector<ir::ExprPtr> args, const ir::Type& type) {
  ir::Rule rule = rules_.at(key);
  rule.result = ruleResult(rule, fd, key);
  module_.rules[spelled] = rule;
  for (const FunctionDecl* helper : ruleHelpers_[key]) enqueue(helper);
  if (!sm_.isInSystemHeader(fd->getLocation()) && fd->getBuiltinID() == 0) declareExternal(fd, spelled);
  return ir::call(spelled, std::move(args), type);
}

}  // namespace adjoint::frontend::detail
