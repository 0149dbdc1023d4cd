// The adjoint code of single statements: how the adjoint of what a statement assigns flows back
// into the adjoints of what it reads. Storage (tapes, restores) is not handled here; see
// TapePlan.h. The derivative of each operator and function comes from rules/.
#pragma once

#include <set>
#include <string>

#include "ad/derive/Requests.h"

namespace adjoint::derive {

class Adjoints {
 public:
  Adjoints(const ir::Module& m, const ir::Function& f, const std::set<std::string>& wrt, Requests& q, ir::ExprPtr seed);

  // Appends the adjoint of the assignment, declaration, call or return `s` to `out`. `inLoop`:
  // whether `s` may run more than once (a declaration in a loop then resets its adjoint).
  void reverseOf(const ir::Stmt& s, bool inLoop, ir::StmtList& out);
  // Appends `adj` flowing into the adjoints of what `e` reads.
  void propagate(const ir::ExprPtr& e, const ir::ExprPtr& adj, ir::StmtList& out);

  // The local an assignment or declaration `s` gives a call's value to (a scalar, or an element of
  // a local array), when the call's rule reads its result (`h = tanh(u)`: tanh_dx(x, y) =
  // 1 - y * y), or a quotient's (`q = a / b`: b_bar -= q_bar / b * q), and the value does not read
  // the local; empty otherwise. The reverse of `s` may then
  // read the local's value after `s` instead of evaluating the call again, where the reverse
  // sweep still has that value.
  std::string resultVariable(const ir::Stmt& s) const;
  // The statements (with a resultVariable) whose reverse reads the value they assign: the caller
  // keeps that value for each of them (TapePlan's readsAfter).
  void readResultsOf(const std::set<const ir::Stmt*>& statements) {
    resultsRead_.insert(statements.begin(), statements.end());
  }
  bool readsResultOf(const ir::Stmt& s) const { return resultsRead_.count(&s) > 0; }

  bool isActive(const std::string& variable) const { return active_.count(variable) > 0; }
  // Numbers the adjoints of warp shuffles from 1 again: the reverse sweep is written after the
  // tape plan has written statements' adjoints to see what they read.
  void restartNumbering() { shuffles_ = 0; }
  // Declarations of the adjoints of active locals.
  ir::StmtList declarations() const;
  // Statements that end the reverse sweep: the local adjoint sums of scalar parameters added
  // into the caller's storage.
  ir::StmtList finish() const;

 private:
  const ir::Module& m_;
  const ir::Function& f_;
  Requests& q_;
  ir::ExprPtr seed_;
  std::set<std::string> seeds_;  // the differentiated parameters: their adjoints go to the caller
  std::set<std::string> active_;
  std::set<std::string> localParamAdjoints_;  // scalar parameters whose adjoint sums in a local
  std::map<std::string, ir::Type> locals_;
  std::set<std::string> addressed_;  // variables whose address the function takes
  std::set<const ir::Stmt*> resultsRead_;
  int shuffles_ = 0;  // numbers the adjoints of warp shuffles
  ir::SourceLoc at_;  // of the statement whose adjoint is being written, for diagnostics

  bool readsActive(const ir::ExprPtr& e) const;
  ir::ExprPtr barOf(const ir::Expr& lvalue) const;
  ir::ExprPtr arrayBar(const ir::Expr& array) const;
  void propagateCall(const ir::ExprPtr& call, const ir::ExprPtr& adj, const ir::ExprPtr& result, ir::StmtList& out);
  void propagateQuotient(const ir::ExprPtr& quotient, const ir::ExprPtr& adj, const ir::ExprPtr& result,
                         ir::StmtList& out);
  bool propagatePower(const ir::ExprPtr& product, const ir::ExprPtr& adj, ir::StmtList& out);
  void assignment(const ir::ExprPtr& lhs, ir::Op op, const ir::ExprPtr& rhs, bool zeroAfter, bool readsResult,
                  ir::StmtList& out);
  void callAdjoint(const ir::Expr& call, const ir::ExprPtr& seed, ir::StmtList& out);
};

}  // namespace adjoint::derive
