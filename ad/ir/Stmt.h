// Statements of the IR. The IR is structured (blocks, if, loops) rather than a control-flow graph,
// so the generated code keeps the shape of the forward code.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ad/ir/Expr.h"

namespace adjoint::ir {

struct SourceLoc {
  unsigned line = 0;
  unsigned col = 0;
};

enum class StmtKind {
  Block,    // body
  Decl,     // type name [= init]  (init may be null; arrays: type.arraySize, inits in `args`)
  Assign,   // lhs op= rhs (op Assign for a plain =)
  Eval,     // expr;  (a call evaluated for its effects)
  If,       // if (expr) body else elseBody
  For,      // for (init; expr; step) body
  While,    // while (expr) body
  DoWhile,  // do body while (expr)
  Break,
  Continue,
  Return,  // return expr (expr null for void)
  // A kernel launch of host code: expr is the call of the kernel with its arguments, args the
  // launch configuration {grid, block, shared memory bytes, stream}; lhs, when set, receives the
  // launch's cudaError_t.
  Launch,
  Push,  // lhs, a tape (Type::tape), receives expr at its end
};

// Where a part of a derivative begins: printed as a heading above the statement's comment.
enum class Section { None, Recorded, Forward, Reverse };
const char* heading(Section s);

struct Stmt;
using StmtPtr = std::shared_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

struct Stmt {
  StmtKind kind;
  SourceLoc loc;
  std::string comment;  // printed on the line above the statement
  Section section = Section::None;

  std::string name;           // Decl
  Type type;                  // Decl
  ExprPtr lhs;                // Assign
  Op op = Op::Assign;         // Assign: Assign for =, Add for +=, ...
  bool atomic = false;        // Assign: atomicAdd(&lhs, expr) (op +=) in a CUDA kernel
  ExprPtr expr;               // Decl init, Assign rhs, Eval, If/loop condition, Return value
  std::vector<ExprPtr> args;  // Decl of an array: its initializer list
  StmtList body;
  StmtList elseBody;
  StmtPtr init;                  // For
  StmtPtr step;                  // For
  bool throughLauncher = false;  // Launch: through the kernel's generated launcher (K_vjp_launch)
  // Block: the body of a call the frontend inlined, its results already assigned where it
  // returns: a return inside leaves the block, not the function (transforms/StructureJumps.h).
  bool inlinedCall = false;
  // Decl, Assign, If: computes values no derivative flows through and that the reverse reads only as
  // the forward leaves them (a running maximum's tracking, transforms/RunningExtremes.h): what
  // it assigns is not active, never restored, and an if of such statements is not taped.
  bool passive = false;
  // Assign: the first value of an element just made (v.push_back(e) is an append and this
  // assignment): it overwrites nothing, so the reverse never restores it.
  bool firstWrite = false;
};

StmtPtr block(StmtList body);
StmtPtr decl(const std::string& name, const Type& type, ExprPtr init);
StmtPtr assign(ExprPtr lhs, Op op, ExprPtr rhs);
StmtPtr eval(ExprPtr e);
StmtPtr ifStmt(ExprPtr cond, StmtList then, StmtList otherwise = {});
StmtPtr forStmt(StmtPtr init, ExprPtr cond, StmtPtr step, StmtList body);
StmtPtr whileStmt(ExprPtr cond, StmtList body);
StmtPtr jump(StmtKind kind);  // Break or Continue
StmtPtr ret(ExprPtr value);
// kernel<<<config[0], config[1], config[2], config[3]>>>(kernel call's arguments)
StmtPtr launch(ExprPtr kernelCall, std::vector<ExprPtr> config);
StmtPtr push(ExprPtr tape, ExprPtr value);
StmtPtr withComment(StmtPtr s, std::string comment);
StmtPtr at(StmtPtr s, SourceLoc loc);

// Calls visit(s) for s and every statement nested in it, parents first.
template <class F>
void walk(const StmtPtr& s, F&& visit) {
  if (!s) return;
  visit(*s);
  walk(s->init, visit);
  walk(s->step, visit);
  for (const StmtPtr& c : s->body) walk(c, visit);
  for (const StmtPtr& c : s->elseBody) walk(c, visit);
}
template <class F>
void walk(const StmtList& list, F&& visit) {
  for (const StmtPtr& s : list) walk(s, visit);
}
// Calls visit(e) for every expression the statement (and its nested statements) evaluates.
template <class F>
void walkExprs(const StmtList& list, F&& visit) {
  walk(list, [&](const Stmt& s) {
    for (const ExprPtr& e : {s.lhs, s.expr}) walk(e, visit);
    for (const ExprPtr& e : s.args) walk(e, visit);
  });
}

bool isLoop(StmtKind k);
// Whether a break/continue/return inside `s` leaves `s` (jumps inside nested loops that target
// those loops do not; a return always does).
bool jumpsOut(const Stmt& s, bool insideLoop = false);
// How often `s` (with the statements nested in it) names the variable `name`, read or written.
int mentions(const Stmt& s, const std::string& name);

// A deep copy: passes that rewrite statements in place work on copies, so the parsed module
// stays as the user wrote it.
StmtList clone(const StmtList& body);

}  // namespace adjoint::ir
