#include "ad/ir/Function.h"

#include <cctype>

namespace adjoint::ir {

const Param* Function::param(const std::string& n) const {
  for (const Param& p : params)
    if (p.name == n) return &p;
  return nullptr;
}

std::string functionName(const std::string& requested) {
  size_t angle = requested.find('<');
  std::string head = requested.substr(0, angle);
  size_t colons = head.rfind("::");
  return identifier(requested.substr(colons == std::string::npos ? 0 : colons + 2));
}

std::string identifier(const std::string& spelled) {
  std::string name;
  for (char c : spelled) {
    bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    if (word)
      name += c;
    else if (!name.empty() && name.back() != '_')
      name += '_';
  }
  while (!name.empty() && name.back() == '_' && spelled.back() != '_') name.pop_back();
  return name;
}

const Param* Function::derivativeOf(const std::string& primal, Role role) const {
  for (const Param& p : params)
    if (p.role == role && p.of == primal) return &p;
  return nullptr;
}

bool isLauncherProvided(const Param& p) {
  return p.role == Role::BlockSums || p.role == Role::VirtualBlocks || p.role == Role::ColumnParts ||
         p.role == Role::SegmentKeys || p.role == Role::SegmentValues || p.role == Role::SegmentRows ||
         p.role == Role::TapeScratch;
}

const Function* Module::find(const std::string& name) const {
  for (const Function& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

const Rule* Module::rule(const std::string& callee) const {
  auto it = rules.find(callee);
  return it == rules.end() ? nullptr : &it->second;
}

bool Rule::partialReadsResult(size_t i) const {
  if (result.empty() || i >= partials.size() || !partials[i]) return false;
  bool reads = false;
  walk(partials[i], [&](const Expr& e) { reads |= e.kind == ExprKind::Var && e.text == result; });
  return reads;
}

bool Module::isPureCall(const Expr& call) const {
  const Rule* r = call.kind == ExprKind::Call ? rule(call.text) : nullptr;
  if (!r || r->isLinear()) return false;
  for (const ExprPtr& arg : call.operands)
    if (arg->type.pointer || arg->type.arraySize > 0 || isOp(*arg, Op::AddressOf)) return false;
  return true;
}

std::string Module::sourceLine(unsigned line) const {
  if (line == 0 || line > sourceLines.size()) return {};
  const std::string& s = sourceLines[line - 1];
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

}  // namespace adjoint::ir
