// Activity analysis: which floating variables depend on the differentiated inputs. Only those
// get adjoints (reverse mode) or tangents (forward mode); everything else is a constant to
// differentiation, which keeps zero-derivative code out of the output.
#pragma once

#include <set>
#include <string>

#include "ad/ir/Function.h"

namespace adjoint::analysis {

// The names of the variables (parameters, locals, arrays by name) whose values vary with the
// parameters in `wrt`.
std::set<std::string> variedVariables(const ir::Function& f, const std::set<std::string>& wrt, const ir::Module& m);

// The names of the variables the statements in `body` assign (array elements count as their array).
std::set<std::string> assignedVariables(const ir::StmtList& body);
std::set<std::string> assignedVariables(const ir::Stmt& s);
// The variables `body` assigns, and the writable pointers it passes to calls, which may write
// through them (a function's outputs written by a helper it calls).
std::set<std::string> writtenVariables(const ir::StmtList& body);

// The names of the variables `e` reads.
std::set<std::string> readVariables(const ir::ExprPtr& e);
// Whether `e` computes from variables alone (no load, no call), none of them in `written`: the
// same value wherever statements that write only `written` run around it (a loop's invariant).
bool unchangedBy(const ir::ExprPtr& e, const std::set<std::string>& written);
// The names of the variables the statements in `body` read (including their conditions).
std::set<std::string> readVariables(const ir::StmtList& body);
// The same, except that an assignment does not read the variable it assigns (`y[i] += e` reads
// i and what e reads, not y): whose values anything but their own updates reads.
std::set<std::string> readVariablesBesidesUpdates(const ir::StmtList& body);

// Whether some statement of `body` may read what a store into `array` wrote: a read after a
// store in program order, a store in a loop (a later iteration may read it), or a call the array
// is passed to. When not, a derivative's forward sweep can leave the stores out: every read sees
// the array as it came in.
bool readsWhatItStores(const ir::StmtList& body, const std::string& array);

}  // namespace adjoint::analysis
