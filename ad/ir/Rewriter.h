// The one way passes change statements. A pass owns the statements of the function it is given
// (a derivative is built fresh; the parsed module is cloned before anything rewrites it), so it
// changes them in place; what a pass puts in a statement's place is spliced into its list.
//
// A pass derives from Rewriter and overrides only the cases it cares about: `rewriteStmt` to
// replace, remove or expand one statement, `rewriteList` to look across neighbours (merging,
// moving). The base walks every nested list (a block's, an if's two, a loop's body), innermost
// first, so each hook sees statements whose nested lists are already rewritten; `enter` sees each
// statement before its nested ones, for a pass that carries context down. A loop's init and
// step are parts of their loop statement, rewritten with it, not visited on their own.
#pragma once

#include "ad/ir/Stmt.h"

namespace adjoint::ir {

class Rewriter {
 public:
  virtual ~Rewriter() = default;
  // Rewrites every list nested in `list`, innermost first, then `list` itself.
  void rewrite(StmtList& list);

 protected:
  // Called on each statement before its nested lists are rewritten (parents before children).
  virtual void enter(Stmt& s) { (void)s; }
  // What takes s's place in its list: {s} keeps it (the default), {} removes it, several
  // statements splice in. Called after s's nested lists were rewritten; the statements returned
  // are not rewritten again.
  virtual StmtList rewriteStmt(const StmtPtr& s) { return {s}; }
  // Called on each list that had statements, once every one of them was rewritten.
  virtual void rewriteList(StmtList& list) { (void)list; }
};

}  // namespace adjoint::ir
