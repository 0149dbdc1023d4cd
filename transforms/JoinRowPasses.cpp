#include "transforms/JoinRowPasses.h"

#include <algorithm>
#include <map>
#include <set>

#include "ad/analysis/Activity.h"
#include "ad/ir/Names.h"
#include "ad/ir/Printer.h"
#include "ad/ir/Rewriter.h"
#include "transforms/RangeLoops.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

// An addition `A_bar[base + counter] += e` (base null: the counter alone) into an adjoint array
// parameter, at the top of a loop's body.
struct RowAdd {
  StmtPtr stmt;
  std::string array;
  ExprPtr base;
};

bool asRowAdd(const StmtPtr& s, const std::string& counter, const Function& d, RowAdd& out) {
  if (s->kind != StmtKind::Assign || s->op != Op::Add || s->atomic || s->lhs->kind != ExprKind::Index) return false;
  const Expr& array = *s->lhs->operands[0];
  const Param* p = array.kind == ExprKind::Var ? d.param(array.text) : nullptr;
  if (!p || !p->type.pointer || p->role != Role::Adjoint) return false;
  const ExprPtr& index = s->lhs->operands[1];
  auto isCounter = [&](const ExprPtr& e) { return e->kind == ExprKind::Var && e->text == counter; };
  ExprPtr base;
  if (!isCounter(index)) {
    if (!isOp(*index, Op::Add)) return false;
    if (isCounter(index->operands[1]))
      base = index->operands[0];
    else if (isCounter(index->operands[0]))
      base = index->operands[1];
    else
      return false;
    if (reads(base, counter)) return false;
  }
  out = {s, array.text, base};
  return true;
}

bool sameBase(const ExprPtr& a, const ExprPtr& b) { return a == b || (a && b && sameExpr(*a, *b)); }

// The statements of a loop's body before its addition that compute what the addend reads (each a
// scalar's declaration or assignment, `=` or an update like `+=`), what they read from outside,
// and how many calls they make with the addend.
struct Slice {
  std::vector<StmtPtr> statements;
  Reads reads;
  int calls = 0;
};

// The scalar a statement of a slice defines, or null where it is no such statement.
const std::string* definedScalar(const Stmt& s) {
  if (s.kind == StmtKind::Decl && s.expr && !s.type.isIndexed() && s.args.empty()) return &s.name;
  if (s.kind == StmtKind::Assign && !s.atomic && s.lhs->kind == ExprKind::Var) return &s.lhs->text;
  return nullptr;
}

bool sliceOf(const StmtList& body, size_t addAt, const Module& m, Slice& out) {
  auto read = [&](const ExprPtr& e) {
    walk(e, [&](const Expr& x) { out.calls += x.kind == ExprKind::Call; });
    return collectReads(e, m, out.reads);
  };
  if (!read(body[addAt]->expr)) return false;
  for (size_t k = addAt; k-- > 0;) {
    const StmtPtr& s = body[k];
    std::set<std::string> assigned = analysis::assignedVariables(*s);
    if (std::none_of(assigned.begin(), assigned.end(),
                     [&](const std::string& v) { return out.reads.scalars.count(v); }))
      continue;
    const std::string* defined = definedScalar(*s);
    if (!defined) return false;
    if (s->kind == StmtKind::Decl || s->op == Op::Assign) out.reads.scalars.erase(*defined);
    if (!read(s->expr)) return false;
    out.statements.insert(out.statements.begin(), s);
  }
  return true;
}

// The arrays that only additions into them mention (`A[i] += e`): no statement reads them.
std::set<std::string> onlyAddedTo(const Function& d) {
  std::map<std::string, int> additions;
  walk(d.body, [&](const Stmt& s) {
    if (s.kind == StmtKind::Assign && s.op == Op::Add && s.lhs->kind == ExprKind::Index &&
        s.lhs->operands[0]->kind == ExprKind::Var && !reads(s.lhs->operands[1], s.lhs->operands[0]->text) &&
        !reads(s.expr, s.lhs->operands[0]->text))
      ++additions[s.lhs->operands[0]->text];
  });
  std::set<std::string> arrays;
  for (const auto& [name, n] : mentions(d.body))
    if (additions[name] == n) arrays.insert(name);
  return arrays;
}

// The calls an addend may be computed again with: none. Measured on an H100 (2026-12-07), the
// join made layernorm's vjps 4-6% faster and rmsnorm's 22% (addends of loads and arithmetic), and
// softmax's 5-6% slower (an addend through expf): the row is in the cache where the last loop adds,
// and a math call computed again costs more than the read-modify-write it saves.
constexpr int kMostCalls = 0;

// "the loop of line 32", "the loops of lines 32 and 24", "the loops of lines 40, 32 and 24".
std::string loopsPlace(const std::vector<unsigned>& lines) {
  if (lines.size() == 1) return "the loop of line " + std::to_string(lines[0]);
  std::string text = "the loops of lines ";
  for (size_t k = 0; k < lines.size(); ++k)
    text += (k == 0 ? "" : k + 1 == lines.size() ? " and " : ", ") + std::to_string(lines[k]);
  return text;
}

// The joins of one list: each earlier loop's addition moved into the last loop of the same range
// that adds into the same array at the same base.
class Joiner {
 public:
  Joiner(StmtList& list, const Function& d, const Module& m, const std::set<std::string>& addedTo,
         const std::set<std::string>& written, const std::map<std::string, int>& mentioned, NameSet& names)
      : list_(list), d_(d), m_(m), addedTo_(addedTo), written_(written), mentioned_(mentioned), names_(names) {}

  void run() {
    std::vector<RangeLoop> loops;
    for (const StmtPtr& s : list_) {
      RangeLoop l;
      if (asRangeLoop(s, l)) loops.push_back(l);
    }
    for (size_t k = loops.size(); k-- > 1;) {
      for (const StmtPtr& s : StmtList(loops[k].loop->body)) {
        RowAdd target;
        if (!asRowAdd(s, loops[k].counter(), d_, target) || !addedTo_.count(target.array) || joined_.count(s.get()))
          continue;
        Target t{loops[k], target, {}, {}, {}, {}};
        for (size_t j = 0; j < k; ++j) joinFrom(loops[j], t);
        finish(t);
      }
    }
  }

 private:
  StmtList& list_;
  const Function& d_;
  const Module& m_;
  const std::set<std::string>& addedTo_;
  const std::set<std::string>& written_;
  const std::map<std::string, int>& mentioned_;
  NameSet& names_;
  std::set<const Stmt*> joined_;  // additions that received others: not moved themselves

  struct Target {
    RangeLoop loop;
    RowAdd add;
    StmtList moved;                // statements computing the addends, in order
    std::vector<ExprPtr> addends;  // the earlier loops' addends, in order
    StmtList zeroings;             // the seeds' zeroings that follow their loads
    std::vector<unsigned> froms;   // the lines of the loops the additions came from
  };

  size_t placeOf(const StmtPtr& s) const {
    return static_cast<size_t>(std::find(list_.begin(), list_.end(), s) - list_.begin());
  }

  // The statements from the source loop up to the target loop, both included.
  StmtList span(const RangeLoop& from, const RangeLoop& to) const {
    return StmtList(list_.begin() + static_cast<long>(placeOf(from.stmt)),
                    list_.begin() + static_cast<long>(placeOf(to.stmt)) + 1);
  }

  // Whether the range and the base read variables that the statements of the span assign.
  bool rangeChanges(const RangeLoop& from, const Target& t) const {
    std::set<std::string> assigned = analysis::assignedVariables(span(from, t.loop));
    assigned.erase(from.counter());
    assigned.erase(t.loop.counter());
    std::set<std::string> read = analysis::readVariables(t.add.base);
    if (from.guard) read.merge(analysis::readVariables(t.loop.stmt->expr));
    read.merge(analysis::readVariables(from.loop->init->expr));
    read.merge(analysis::readVariables(from.loop->expr));
    read.merge(analysis::readVariables(from.loop->step->expr));
    read.erase(from.counter());
    return std::any_of(read.begin(), read.end(), [&](const std::string& v) { return assigned.count(v); });
  }

  // The zeroing in `body` of a seed the slice loads, which moves along: written nowhere else, read
  // nowhere else, at one index, after its loads. Null where the array is never written (nothing
  // to move); false where it cannot move.
  bool zeroingOf(const std::string& array, const StmtList& body, StmtPtr& zeroing) const {
    zeroing = nullptr;
    if (!written_.count(array)) return true;
    size_t at = body.size();
    for (size_t k = 0; k < body.size(); ++k) {
      const Stmt& s = *body[k];
      if (s.kind == StmtKind::Assign && s.op == Op::Assign && s.lhs->kind == ExprKind::Index &&
          s.lhs->operands[0]->text == array && isZero(s.expr)) {
        if (zeroing) return false;
        zeroing = body[k];
        at = k;
      }
    }
    if (!zeroing || mentions(body).at(array) != mentioned_.at(array)) return false;
    bool sameIndex = true;
    walkExprs(body, [&](const Expr& e) {
      if (e.kind == ExprKind::Index && e.operands[0]->text == array)
        sameIndex &= sameExpr(*e.operands[1], *zeroing->lhs->operands[1]);
    });
    for (size_t k = at + 1; k < body.size(); ++k) sameIndex &= !mentions({body[k]}).count(array);
    return sameIndex;
  }

  // Moves the source loop's addition into the target's loop where that is safe.
  void joinFrom(const RangeLoop& from, Target& t) {
    StmtList& body = from.loop->body;
    size_t addAt = body.size();
    for (size_t k = 0; k < body.size(); ++k) {
      RowAdd a;
      if (asRowAdd(body[k], from.counter(), d_, a) && a.array == t.add.array && sameBase(a.base, t.add.base)) {
        if (addAt != body.size()) return;  // two of them: left alone
        addAt = k;
      }
    }
    Slice slice;
    if (addAt == body.size() || joined_.count(body[addAt].get()) || !sameRange(from, t.loop) || rangeChanges(from, t) ||
        jumpsOrWaits(from.stmt) || jumpsOrWaits(t.loop.stmt) || !sliceOf(body, addAt, m_, slice) ||
        slice.calls > kMostCalls)
      return;
    StmtList zeroings;
    Reads zeroed;  // what the zeroings' indices read
    for (const std::string& array : slice.reads.arrays) {
      StmtPtr zeroing;
      if (array == t.add.array || !zeroingOf(array, body, zeroing)) return;
      if (zeroing) zeroings.push_back(zeroing);
      if (zeroing && !collectReads(zeroing->lhs->operands[1], m_, zeroed)) return;
    }
    if (!zeroed.arrays.empty()) return;
    slice.reads.scalars.merge(zeroed.scalars);
    std::set<std::string> inLoop = analysis::assignedVariables(body);
    slice.reads.scalars.erase(from.counter());
    for (const auto& [v, type] : slice.reads.scalars)
      if (inLoop.count(v)) return;  // carried from one iteration to the next
    move(from, addAt, slice, zeroings, t);
  }

  void move(const RangeLoop& from, size_t addAt, const Slice& slice, const StmtList& zeroings, Target& t) {
    StmtList& body = from.loop->body;
    std::map<std::string, ExprPtr> names{{from.counter(), t.loop.counterVar()}};
    // Scalars that change before the target's loop reads them: kept as the source loop saw them.
    StmtList between(list_.begin() + static_cast<long>(placeOf(from.stmt)) + 1,
                     list_.begin() + static_cast<long>(placeOf(t.loop.stmt)) + 1);
    std::set<std::string> changed = analysis::assignedVariables(between);
    StmtList saved;
    std::string savedNames;
    for (const auto& [v, type] : slice.reads.scalars) {
      if (!changed.count(v)) continue;
      Type constant = type;
      constant.constant = true;
      names[v] = var(names_.fresh(v), constant);
      savedNames += (savedNames.empty() ? "" : " and ") + v;
      saved.push_back(at(decl(names[v]->text, constant, var(v, type)), from.stmt->loc));
    }
    if (!saved.empty()) {
      saved[0]->comment = savedNames + " as " + loopPlace(*from.stmt) +
                          (saved.size() > 1 ? " reads them" : " reads it") + ": that loop's addition into " +
                          t.add.array + "\nis made in " + loopPlace(*t.loop.stmt);
      list_.insert(list_.begin() + static_cast<long>(placeOf(from.stmt)) + 1, saved.begin(), saved.end());
    }
    // The slice again, each scalar it defines under a name of its own: constant where defined once.
    std::map<std::string, int> definitions;
    for (const StmtPtr& s : slice.statements) ++definitions[*definedScalar(*s)];
    std::set<std::string> declared;
    for (const StmtPtr& s : slice.statements) {
      const std::string& v = *definedScalar(*s);
      ExprPtr value = renamed(s->expr, names);
      if (declared.insert(v).second) {
        Type type = s->kind == StmtKind::Decl ? s->type : s->lhs->type;
        type.constant = definitions[v] == 1;
        names[v] = var(names_.fresh(v), type);
        t.moved.push_back(at(decl(names[v]->text, type, value), s->loc));
      } else {
        t.moved.push_back(at(assign(names[v], s->op, value), s->loc));
      }
    }
    t.addends.push_back(renamed(body[addAt]->expr, names));
    for (const StmtPtr& z : zeroings) t.zeroings.push_back(assign(renamed(z->lhs, names), Op::Assign, z->expr));
    t.froms.push_back(from.stmt->loc.line);
    // The addition leaves the source loop; its comment stays with the statement after it.
    StmtPtr removed = body[addAt];
    body.erase(body.begin() + static_cast<long>(addAt));
    if (!removed->comment.empty() && addAt < body.size() && body[addAt]->comment.empty())
      body[addAt]->comment = removed->comment;
    for (const StmtPtr& z : zeroings) body.erase(std::find(body.begin(), body.end(), z));
    joined_.insert(t.add.stmt.get());
  }

  void finish(Target& t) {
    if (t.addends.empty()) return;
    StmtList& body = t.loop.loop->body;
    ExprPtr sum = t.addends[0];
    for (size_t k = 1; k < t.addends.size(); ++k) sum = add(sum, t.addends[k]);
    t.add.stmt->expr = add(sum, t.add.stmt->expr);
    std::string note = "the additions into " + t.add.array + " of " + loopsPlace(t.froms) +
                       ",\nmade here with this loop's: one read-modify-write of each element";
    StmtPtr first = t.moved.empty() ? t.add.stmt : t.moved[0];
    first->comment = first->comment.empty() ? note : note + "\n" + first->comment;
    body.insert(body.begin(), t.moved.begin(), t.moved.end());
    body.insert(body.end(), t.zeroings.begin(), t.zeroings.end());
  }
};

class RowPassJoiner : public Rewriter {
 public:
  RowPassJoiner(const Function& d, const Module& m)
      : d_(d),
        m_(m),
        addedTo_(onlyAddedTo(d)),
        written_(analysis::writtenVariables(d.body)),
        mentioned_(mentions(d.body)),
        names_(d) {}

 private:
  const Function& d_;
  const Module& m_;
  std::set<std::string> addedTo_, written_;
  std::map<std::string, int> mentioned_;
  NameSet names_;

  void rewriteList(StmtList& list) override { Joiner(list, d_, m_, addedTo_, written_, mentioned_, names_).run(); }
};

}  // namespace

void joinRowPasses(Function& d, const Module& m) { RowPassJoiner(d, m).rewrite(d.body); }

}  // namespace adjoint::transforms
