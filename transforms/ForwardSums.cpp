#include "transforms/ForwardSums.h"

#include <map>
#include <set>

#include "ad/analysis/Activity.h"
#include "ad/ir/Names.h"
#include "ad/ir/Printer.h"
#include "transforms/RangeLoops.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

// A statement of the function in pre-order, with where it stands.
struct Node {
  StmtPtr stmt;
  std::vector<Stmt*> path;  // the statements around it, outermost first
  StmtList* list = nullptr;
  size_t at = 0;   // its place in `list`
  size_t end = 0;  // the pre-order number after its nested statements
};

void number(StmtList& list, std::vector<Stmt*>& path, std::vector<Node>& out) {
  for (size_t k = 0; k < list.size(); ++k) {
    size_t self = out.size();
    out.push_back({list[k], path, &list, k, 0});
    path.push_back(list[k].get());
    number(list[k]->body, path, out);
    number(list[k]->elseBody, path, out);
    path.pop_back();
    out[self].end = out.size();
  }
}

bool isFor(const Stmt& s) { return s.kind == StmtKind::For && s.init && s.init->kind == StmtKind::Decl && s.expr; }

// A term of a reverse loop's sum as a factor the loop does not change times one it does
// (f * g), read through products, negations and divisions by the unchanged.
struct Split {
  std::vector<ExprPtr> fixed, varying, divisors;
  bool negated = false;
};

// The reverse loop's body, read as sums into scalars.
struct ReverseSums {
  std::set<std::string> declared;                 // its locals, computed again each iteration
  std::map<std::string, ExprPtr> temps;           // scalars it assigns before reading them, by value
  std::vector<std::pair<StmtPtr, ExprPtr>> sums;  // `a += t` / `a -= t`, with t's temps inlined
};

// What the statements from the forward's loop up to the reverse's change: the scalars they assign
// and the arrays they write (of a statement that holds the reverse loop, all of it), and how often
// the forward loop's body assigns each of its scalars.
struct Between {
  std::set<std::string> changed, written;
  std::map<std::string, int> forwardAssigned;

  Between(const std::vector<Node>& nodes, size_t f, size_t r) {
    for (size_t k = f; k < r; k = nodes[k].end) {  // each statement once, with what it holds
      StmtList one{nodes[k].stmt};
      changed.merge(analysis::assignedVariables(one));
      written.merge(analysis::writtenVariables(one));
    }
    walk(nodes[f].stmt->body, [&](const Stmt& s) {
      if (s.kind == StmtKind::Decl) ++forwardAssigned[s.name];
      if (s.kind == StmtKind::Assign) ++forwardAssigned[rootName(*s.lhs)];
    });
  }
};

class ForwardSums {
 public:
  ForwardSums(Function& d, const Module& m) : d_(d), m_(m), names_(d) {}

  void run() {
    for (bool changed = true; changed;) {
      changed = false;
      std::vector<Node> nodes;
      std::vector<Stmt*> path;
      number(d_.body, path, nodes);
      for (size_t r = 0; r < nodes.size() && !changed; ++r)
        if (isFor(*nodes[r].stmt) && placeOf(nodes, r).line)
          for (size_t f = 0; f < r && !changed; ++f) changed = tryPair(nodes, f, r);
    }
  }

 private:
  Function& d_;
  const Module& m_;
  NameSet names_;

  bool tryPair(const std::vector<Node>& nodes, size_t f, size_t r) {
    const Stmt &forward = *nodes[f].stmt, &reverse = *nodes[r].stmt;
    SourceLoc place = placeOf(nodes, r);
    if (!isFor(forward) || forward.loc.line != place.line || forward.loc.col != place.col ||
        forward.init->name != reverse.init->name || nodes[f].end > r || jumpsOrWaits(nodes[f].stmt) || !forward.step ||
        !reverse.step || forward.step->op == reverse.step->op || !sameExpr(*forward.step->expr, *reverse.step->expr) ||
        analysis::assignedVariables(forward.body).count(forward.init->name))
      return false;
    size_t common = 0;
    const Node *forwardItem = nullptr, *reverseItem = nullptr;
    if (!commonScope(nodes, f, r, common, forwardItem, reverseItem)) return false;
    ReverseSums sums;
    if (!readSums(reverse, sums)) return false;
    Between between(nodes, f, r);
    std::vector<std::pair<Split, ExprPtr>> splits;  // each sum's split, and its varying part
    for (const auto& [stmt, term] : sums.sums) {
      Split split;
      splitTerm(term, sums, reverse.init->name, split);
      if (split.varying.empty()) return false;
      ExprPtr g = split.varying[0];
      for (size_t k = 1; k < split.varying.size(); ++k) g = mul(g, split.varying[k]);
      if (!computedByForward(g, sums, between, forward, reverse)) return false;
      splits.push_back({split, g});
    }
    rewrite(nodes, f, r, *forwardItem, sums, splits);
    return true;
  }

  // The list holding both loops (through ifs only below it), and the items of it that hold them.
  static bool commonScope(const std::vector<Node>& nodes, size_t f, size_t r, size_t& common, const Node*& forwardItem,
                          const Node*& reverseItem) {
    const std::vector<Stmt*>&fp = nodes[f].path, &rp = nodes[r].path;
    while (common < fp.size() && common < rp.size() && fp[common] == rp[common]) ++common;
    for (size_t k = common; k < fp.size(); ++k)
      if (fp[k]->kind != StmtKind::If) return false;
    for (size_t k = common; k < rp.size(); ++k)
      if (rp[k]->kind != StmtKind::If) return false;
    auto itemOf = [&](size_t n) -> const Node* {
      const std::vector<Stmt*>& p = nodes[n].path;
      Stmt* item = common < p.size() ? p[common] : nodes[n].stmt.get();
      for (const Node& node : nodes)
        if (node.stmt.get() == item) return &node;
      return nullptr;
    };
    forwardItem = itemOf(f);
    reverseItem = itemOf(r);
    return forwardItem && reverseItem && forwardItem->list == reverseItem->list && forwardItem->at < reverseItem->at;
  }

  bool readSums(const Stmt& loop, ReverseSums& out) const {
    std::set<std::string> assigned;
    for (const StmtPtr& s : loop.body) {
      Reads reads;
      if (!s->expr || !collectReads(s->expr, m_, reads)) return false;
      if (s->kind == StmtKind::Decl && !s->type.isIndexed() && s->args.empty()) {
        out.declared.insert(s->name);
        continue;
      }
      if (s->kind != StmtKind::Assign || s->atomic || s->lhs->kind != ExprKind::Var || d_.param(s->lhs->text) ||
          !assigned.insert(s->lhs->text).second)
        return false;
      ExprPtr value = renamed(s->expr, out.temps);
      if (s->op == Op::Assign)
        out.temps[s->lhs->text] = value;
      else if (s->op == Op::Add || s->op == Op::Sub)
        out.sums.push_back({s, value});
      else
        return false;
    }
    if (out.sums.empty()) return false;
    // A sum's scalar is read by no statement of the loop (nor by a term, through a temporary); a
    // temporary nowhere outside it.
    std::map<std::string, int> inLoop = mentions(loop.body), inFunction = mentions(d_.body);
    for (const auto& [stmt, term] : out.sums) {
      if (inLoop[stmt->lhs->text] != 1) return false;
      for (const auto& [other, t] : out.sums)
        if (reads(t, stmt->lhs->text)) return false;
    }
    for (const auto& [name, value] : out.temps)
      if (inFunction[name] != inLoop[name]) return false;
    return true;
  }

  static bool fixedInLoop(const ExprPtr& e, const ReverseSums& sums, const std::string& counter) {
    bool fixed = true;
    walk(e, [&](const Expr& x) {
      fixed &=
          x.kind != ExprKind::Index && !(x.kind == ExprKind::Var && (x.text == counter || sums.declared.count(x.text)));
    });
    return fixed;
  }

  static void splitTerm(const ExprPtr& e, const ReverseSums& sums, const std::string& counter, Split& out) {
    if (isOp(*e, Op::Mul)) {
      splitTerm(e->operands[0], sums, counter, out);
      splitTerm(e->operands[1], sums, counter, out);
    } else if (e->kind == ExprKind::Unary && e->op == Op::Neg) {
      out.negated = !out.negated;
      splitTerm(e->operands[0], sums, counter, out);
    } else if (isOp(*e, Op::Div) && fixedInLoop(e->operands[1], sums, counter)) {
      out.divisors.push_back(e->operands[1]);
      splitTerm(e->operands[0], sums, counter, out);
    } else {
      (fixedInLoop(e, sums, counter) ? out.fixed : out.varying).push_back(e);
    }
  }

  // Whether `g` has the same value at the end of each iteration of the forward's loop as in the
  // reverse's: the locals it reads are declared there alike, the rest unchanged in between.
  bool computedByForward(const ExprPtr& g, const ReverseSums& sums, const Between& between, const Stmt& forward,
                         const Stmt& reverse) const {
    std::vector<ExprPtr> pending{g};
    std::set<std::string> seen;
    while (!pending.empty()) {
      ExprPtr e = pending.back();
      pending.pop_back();
      Reads reads;
      if (!collectReads(e, m_, reads)) return false;
      for (const std::string& array : reads.arrays)
        if (between.written.count(array)) return false;
      for (const auto& [name, type] : reads.scalars) {
        if (name == reverse.init->name || !seen.insert(name).second) continue;
        if (!sums.declared.count(name)) {
          if (between.changed.count(name)) return false;
          continue;
        }
        const Stmt* mine = declarationIn(reverse.body, name);
        const Stmt* theirs = declarationIn(forward.body, name);
        if (!mine || !theirs || between.forwardAssigned.at(name) != 1 || !sameExpr(*mine->expr, *theirs->expr))
          return false;
        pending.push_back(mine->expr);
      }
    }
    return true;
  }

  // The forward line a reverse loop stands for: its own, or that of the if around it.
  static SourceLoc placeOf(const std::vector<Node>& nodes, size_t r) {
    return isGuard(nodes, r) ? nodes[r].path.back()->loc : nodes[r].stmt->loc;
  }

  // Whether the loop is alone in an if (`if (lane < C) for (c = ...; c >= lane; c -= 32)`).
  static bool isGuard(const std::vector<Node>& nodes, size_t r) {
    if (nodes[r].path.empty()) return false;
    const Stmt& around = *nodes[r].path.back();
    return around.kind == StmtKind::If && around.elseBody.empty() && around.body.size() == 1;
  }

  static const Stmt* declarationIn(const StmtList& body, const std::string& name) {
    for (const StmtPtr& s : body)
      if (s->kind == StmtKind::Decl && s->name == name) return s.get();
    return nullptr;
  }

  void rewrite(const std::vector<Node>& nodes, size_t f, size_t r, const Node& forwardItem, const ReverseSums& sums,
               const std::vector<std::pair<Split, ExprPtr>>& splits) {
    Stmt& forward = *nodes[f].stmt;
    const Stmt& reverse = *nodes[r].stmt;
    std::string place = loopPlace(forward);
    std::map<std::string, ExprPtr> sumOf;  // a varying part (printed) -> its sum
    StmtList declarations, replacement;
    for (size_t k = 0; k < splits.size(); ++k) {
      const auto& [split, g] = splits[k];
      const StmtPtr& stmt = sums.sums[k].first;
      std::string key = print(*g);
      ExprPtr& total = sumOf[key];
      if (!total) {
        std::string base = g->kind == ExprKind::Var ? g->text + "_sum" : stmt->lhs->text + "_terms";
        Type t = g->type;
        t.constant = false;
        total = var(names_.fresh(base), t);
        declarations.push_back(
            withComment(decl(total->text, t, ir::number(0, t)),
                        "the sum of " + key + " over " + place + ", made by the forward sweep's loop for its reverse"));
        forward.body.push_back(assign(total, Op::Add, g));
      }
      ExprPtr value;
      for (const ExprPtr& fixed : split.fixed) value = value ? mul(value, fixed) : fixed;
      value = value ? mul(value, total) : total;
      for (const ExprPtr& divisor : split.divisors) value = div(value, divisor);
      if (split.negated) value = neg(value);
      StmtPtr once = assign(stmt->lhs, stmt->op, value);
      once->comment = print(*stmt->lhs) + (stmt->op == Op::Sub ? " -= " : " += ") + print(*sums.sums[k].second) +
                      " at each element:\nthe factor times the sum of " + key + " the forward sweep made";
      replacement.push_back(once);
    }
    // The reverse loop's place: the sums added once, where the loop would run at all (in the if
    // around a reversed strided loop, which tests just that).
    const Node& at = nodes[r];
    if (isGuard(nodes, r)) {
      at.list->erase(at.list->begin() + static_cast<long>(at.at));
      at.list->insert(at.list->begin() + static_cast<long>(at.at), replacement.begin(), replacement.end());
    } else {
      StmtPtr added = ifStmt(renamed(reverse.expr, {{reverse.init->name, reverse.init->expr}}), replacement);
      added->loc = reverse.loc;
      added->comment = reverse.comment;
      (*at.list)[at.at] = added;
    }
    forwardItem.list->insert(forwardItem.list->begin() + static_cast<long>(forwardItem.at), declarations.begin(),
                             declarations.end());
  }
};

}  // namespace

void sumInForwardSweep(Function& d, const Module& m) { ForwardSums(d, m).run(); }

}  // namespace adjoint::transforms
