#include "ad/ir/Printer.h"

#include <sstream>

#include "ad/ir/Naming.h"

namespace adjoint::ir {

namespace {

// C++ precedence, higher binds tighter.
constexpr int kUnary = 12, kPrimary = 13;
int precedence(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Select:
    case ExprKind::Verbatim:  // (any expression: parenthesized inside another)
      return 1;
    case ExprKind::Binary:
      switch (e.op) {
        case Op::Or:
          return 2;
        case Op::And:
          return 3;
        case Op::BitOr:
          return 4;
        case Op::BitXor:
          return 5;
        case Op::BitAnd:
          return 6;
        case Op::Eq:
        case Op::Ne:
          return 7;
        case Op::Lt:
        case Op::Le:
        case Op::Gt:
        case Op::Ge:
          return 8;
        case Op::Shl:
        case Op::Shr:
          return 9;
        case Op::Add:
        case Op::Sub:
          return 10;
        default:
          return 11;  // * / %
      }
    case ExprKind::Unary:
    case ExprKind::Cast:
      return kUnary;
    default:
      return kPrimary;
  }
}

std::string wrap(const Expr& e, int min) {
  std::string s = print(e);
  return precedence(e) < min ? "(" + s + ")" : s;
}

// The 16-bit format the array that `e` indexes stores its elements in, or "".
const std::string& storageOf(const Expr& e) {
  static const std::string none;
  return e.kind == ExprKind::Index ? e.operands[0]->type.storage : none;
}

}  // namespace

std::string printPlace(const Expr& e) {
  if (e.kind != ExprKind::Index || e.operands[0]->type.reference) return print(e);
  return wrap(*e.operands[0], kPrimary) + "[" + print(*e.operands[1]) + "]";
}

std::string print(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Number:
      return e.value < 0 ? "(" + e.text + ")" : e.text;
    case ExprKind::Constant:  // <cmath>'s M_ constants are doubles
      return e.type.scalar == Scalar::Float && e.text.rfind("M_", 0) == 0 ? "static_cast<float>(" + e.text + ")"
                                                                          : e.text;
    case ExprKind::Bool:
    case ExprKind::Var:
      return e.text;
    case ExprKind::Index:
      if (e.operands[0]->type.reference) return print(*e.operands[0]);  // a reference parameter is its element
      if (!storageOf(e).empty()) return widenedFromStorage(storageOf(e)) + "(" + printPlace(e) + ")";
      return printPlace(e);
    case ExprKind::Unary:
      if (e.op == Op::AddressOf) return "&" + printPlace(*e.operands[0]);
      return spelling(e.op) + wrap(*e.operands[0], kUnary);
    case ExprKind::Binary: {
      int p = precedence(e);
      // Compilers ask for parentheses around arithmetic inside bit operators and shifts.
      bool bits = p >= 4 && p <= 9 && p != 7 && p != 8;
      int left = bits ? kUnary : p, right = bits ? kUnary : p + 1;
      // Left-associative: the right operand needs parentheses at equal precedence.
      return wrap(*e.operands[0], left) + " " + spelling(e.op) + " " + wrap(*e.operands[1], right);
    }
    case ExprKind::Call: {
      std::string s = e.text + "(";
      for (size_t i = 0; i < e.operands.size(); ++i) s += (i ? ", " : "") + print(*e.operands[i]);
      return s + ")";
    }
    case ExprKind::Select:
      return wrap(*e.operands[0], 2) + " ? " + wrap(*e.operands[1], 2) + " : " + wrap(*e.operands[2], 1);
    case ExprKind::Cast:
      return "static_cast<" + e.type.scalarSpelling() + ">(" + print(*e.operands[0]) + ")";
    case ExprKind::Member:
      if (e.operands[0]->type.record && e.operands[0]->type.record->header == "<tuple>")  // field k: std::get<k>
        return "std::get<" + e.text + ">(" + (e.operands[0]->type.pointer ? "*" : "") + print(*e.operands[0]) + ")";
      {
        std::string access = wrap(*e.operands[0], kPrimary) +
                             (e.operands[0]->type.pointer && !e.operands[0]->type.isContainer() ? "->" : ".") + e.text;
        if (e.operands.size() == 1) return access;
        std::string s = access + "(";  // a method with arguments
        for (size_t i = 1; i < e.operands.size(); ++i) s += (i > 1 ? ", " : "") + print(*e.operands[i]);
        return s + ")";
      }
    case ExprKind::Pop:
      return "adjoint_pop(" + print(*e.operands[0]) + ")";
    case ExprKind::Top:
      return print(*e.operands[0]) + ".back()";
    case ExprKind::Verbatim: {
      std::string s;
      size_t k = 0;
      for (char c : e.text) s += c == kVerbatimGap ? print(*e.operands[k++]) : std::string(1, c);
      return s;
    }
  }
  return "?";
}

namespace {

class StmtPrinter {
 public:
  StmtPrinter(std::ostringstream& out, const PrintOptions& options) : out_(out), options_(options) {}

  void list(const StmtList& body, int indent) {
    for (const StmtPtr& s : body) stmt(*s, indent);
  }

  // A statement without indentation or trailing newline: for-loop headers.
  std::string inlineStmt(const Stmt& s) {
    if (s.kind == StmtKind::Decl) return declText(s);
    if (s.kind == StmtKind::Assign) return assignText(s);
    return print(*s.expr);
  }

 private:
  std::ostringstream& out_;
  const PrintOptions& options_;
  unsigned lastLine_ = 0;

  void line(int indent, const std::string& text) { out_ << std::string(2 * indent, ' ') << text << "\n"; }

  static std::string declText(const Stmt& s) {
    // (A shared pointer points into the dynamic shared memory: transforms/DynamicShared.h.)
    bool sharedArray = s.type.shared && !s.type.pointer;
    std::string t = (sharedArray ? "__shared__ " : "") + s.type.paramSpelling() + " " + s.name;
    if (s.type.arraySize > 0) {
      t += "[" + std::to_string(s.type.arraySize) + "]";
      if (s.type.shared) return t;  // shared memory takes no initializer
      t += " = {";
      for (size_t i = 0; i < s.args.size(); ++i) t += (i ? ", " : "") + print(*s.args[i]);
      t += "}";
    }
    if (s.type.isArrayLocal() && s.type.isContainer())  // its size (none: empty, grown by push_back)
      return s.args.empty() ? t : t + "(" + print(*s.args[0]) + ")";
    if (s.expr) t += " = " + print(*s.expr);
    return t;
  }

  static std::string assignText(const Stmt& s) {
    if (const std::string& storage = storageOf(*s.lhs); !storage.empty()) {
      // x[i] += e on a 16-bit array: the sum in float, rounded once.
      ExprPtr value = s.op == Op::Assign || s.atomic ? s.expr : binary(s.op, s.lhs, s.expr);
      std::string rounded = roundedToStorage(storage) + "(" + print(*value) + ")";
      return s.atomic ? "atomicAdd(&" + printPlace(*s.lhs) + ", " + rounded + ")"
                      : printPlace(*s.lhs) + " = " + rounded;
    }
    if (s.atomic) return "atomicAdd(&" + printPlace(*s.lhs) + ", " + print(*s.expr) + ")";
    if (s.expr->kind == ExprKind::Number && s.expr->value == 1 && s.lhs->type.scalar == Scalar::Int) {
      if (s.op == Op::Add) return "++" + print(*s.lhs);
      if (s.op == Op::Sub) return "--" + print(*s.lhs);
    }
    return printPlace(*s.lhs) + " " + assignmentSpelling(s.op) + " " + print(*s.expr);
  }

  // Through adjoint::launch, which the CPU execution of kernels also provides (a host compiler
  // does not know <<< >>>), or through the kernel's generated launcher.
  static std::string launchText(const Stmt& s) {
    std::string text = s.lhs ? print(*s.lhs) + " = " : "";
    text += s.throughLauncher ? naming::launcherOf(s.expr->text) + "(" : "adjoint::launch(" + s.expr->text + ", ";
    for (size_t i = 0; i < s.args.size(); ++i) text += (i ? ", " : "") + print(*s.args[i]);
    for (const ExprPtr& a : s.expr->operands) text += ", " + print(*a);
    return text + ")";
  }

  void block(const StmtList& body, int indent, const std::string& head, const std::string& tail = "}") {
    line(indent, head.empty() ? "{" : head + " {");
    list(body, indent + 1);
    line(indent, tail);
  }

  // An else holding one if and nothing else to print (no comment, no #line) is `else if`.
  bool continuesChain(const StmtList& elseBody) const {
    if (elseBody.size() != 1 || elseBody[0]->kind != StmtKind::If) return false;
    const Stmt& next = *elseBody[0];
    return next.comment.empty() && next.section == Section::None && options_.lineFile.empty();
  }

  void ifChain(const Stmt& s, int indent) {
    line(indent, "if (" + print(*s.expr) + ") {");
    const Stmt* at = &s;
    list(at->body, indent + 1);
    while (continuesChain(at->elseBody)) {
      at = at->elseBody[0].get();
      line(indent, "} else if (" + print(*at->expr) + ") {");
      list(at->body, indent + 1);
    }
    if (!at->elseBody.empty()) {
      line(indent, "} else {");
      list(at->elseBody, indent + 1);
    }
    line(indent, "}");
  }

  void stmt(const Stmt& s, int indent) {
    if (!options_.lineFile.empty() && s.loc.line && s.loc.line != lastLine_) {
      out_ << "#line " << s.loc.line << " \"" << options_.lineFile << "\"\n";
      lastLine_ = s.loc.line;
    }
    if (s.section != Section::None) line(indent, std::string("// ") + heading(s.section));
    if (!s.comment.empty()) {
      std::istringstream lines(s.comment);
      for (std::string l; std::getline(lines, l);) line(indent, "// " + l);
    }
    switch (s.kind) {
      case StmtKind::Block:
        block(s.body, indent, "");
        break;
      case StmtKind::Decl:
        line(indent, declText(s) + ";");
        break;
      case StmtKind::Assign:
        line(indent, assignText(s) + ";");
        break;
      case StmtKind::Eval:
        line(indent, print(*s.expr) + ";");
        break;
      case StmtKind::If:
        ifChain(s, indent);
        break;
      case StmtKind::For:
        block(s.body, indent,
              "for (" + (s.init ? inlineStmt(*s.init) : "") + "; " + (s.expr ? print(*s.expr) : "") + "; " +
                  (s.step ? inlineStmt(*s.step) : "") + ")");
        break;
      case StmtKind::While:
        block(s.body, indent, "while (" + print(*s.expr) + ")");
        break;
      case StmtKind::DoWhile:
        block(s.body, indent, "do", "} while (" + print(*s.expr) + ");");
        break;
      case StmtKind::Break:
        line(indent, "break;");
        break;
      case StmtKind::Continue:
        line(indent, "continue;");
        break;
      case StmtKind::Return:
        line(indent, s.expr ? "return " + print(*s.expr) + ";" : "return;");
        break;
      case StmtKind::Launch:
        line(indent, launchText(s) + ";");
        break;
      case StmtKind::Push:
        line(indent, print(*s.lhs) + ".push_back(" + print(*s.expr) + ");");
        break;
    }
  }
};

}  // namespace

std::string print(const StmtList& body, int indent, const PrintOptions& options) {
  std::ostringstream out;
  StmtPrinter(out, options).list(body, indent);
  return out.str();
}

std::string printSignature(const Function& f, bool definition) {
  std::string target = f.kernel ? "__global__ " : f.device ? (f.host ? "__host__ __device__ " : "__device__ ") : "";
  // (a vjp kernel instantiated for adjoint::Bars::add and ::fresh: transforms/FreshBars.h)
  std::string over = f.takesFreshBars() ? "template <bool " + std::string(naming::kFreshBars) + ">\n" : "";
  std::string s = over + (f.internal ? "static " : "") + target + f.returnType.paramSpelling() + " " + f.name + "(";
  for (size_t i = 0; i < f.params.size(); ++i) {
    const Param& p = f.params[i];
    s += (i ? ", " : "") + std::string(definition && p.unused ? "[[maybe_unused]] " : "") +
         (f.internal ? p.type.paramSpelling() + " " + p.name : p.type.declarator(p.name));
  }
  return s + ")";
}

std::string print(const Function& f, const PrintOptions& options) {
  std::ostringstream out;
  if (!f.doc.empty()) {
    std::istringstream lines(f.doc);
    for (std::string l; std::getline(lines, l);) out << "// " << l << "\n";
  }
  out << printSignature(f, true) << " {\n" << print(f.body, 1, options) << "}\n";
  return out.str();
}

std::string print(const Module& m) {
  std::string s;
  for (const Function& f : m.functions) s += print(f) + "\n";
  return s;
}

}  // namespace adjoint::ir
