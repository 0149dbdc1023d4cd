#include "transforms/VectorLanes.h"

#include <optional>

#include "ad/analysis/Activity.h"
#include "ad/analysis/Loops.h"
#include "ad/ir/Names.h"
#include "ad/ir/Printer.h"
#include "ad/ir/Rewriter.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

const Type kVoid = Type::of(Scalar::Void);

// How many elements of `t` one 128-bit access moves: 4 floats, 2 doubles; 0 for other types and
// for elements not stored as themselves (16-bit storage, rows, containers).
int lanesOf(const Type& t) {
  if (!t.storage.empty() || !t.rowExtents.empty() || t.isContainer() || t.reference) return 0;
  return t.scalar == Scalar::Float ? 4 : t.scalar == Scalar::Double ? 2 : 0;
}

// The pointer parameter `e` names, when a vector access can move its elements.
const Param* vectorBuffer(const Expr& e, const Function& d) {
  const Param* p = e.kind == ExprKind::Var ? d.param(e.text) : nullptr;
  return p && p->type.pointer && lanesOf(p->type) ? p : nullptr;
}

// buffer + offset (offset null: the buffer itself).
ExprPtr address(const ExprPtr& buffer, const ExprPtr& offset) {
  return offset && !isZero(offset) ? atOffsetOf({buffer, offset}, buffer) : buffer;
}

// ---- A loop over a vector's lanes that adds to an adjoint at o + k ----

// How many values a counted loop's counter takes when they are 0 to count - 1 (either way round,
// step 1); 0 otherwise.
int laneCount(const Stmt& loop, analysis::CountedLoop& c) {
  if (!analysis::asCountedLoop(loop, c) || c.step || c.first->kind != ExprKind::Number ||
      c.bound->kind != ExprKind::Number)
    return 0;
  double bound = c.inclusive ? c.bound->value : c.bound->value + (c.increasing ? -1 : 1);
  double low = c.increasing ? c.first->value : bound, high = c.increasing ? bound : c.first->value;
  return low == 0 && high >= 0 && high < 16 ? static_cast<int>(high) + 1 : 0;
}

// The o of an index o + k (k alone: o null) of the counter k, when o is computed from variables
// the loop leaves alone; nothing otherwise.
std::optional<ExprPtr> invariantOffset(const ExprPtr& index, const std::string& counter,
                                       const std::set<std::string>& written) {
  auto isCounter = [&](const ExprPtr& e) {
    const Expr& s = stripCasts(*e);
    return s.kind == ExprKind::Var && s.text == counter;
  };
  if (isCounter(index)) return ExprPtr{};
  if (!isOp(*index, Op::Add)) return std::nullopt;
  for (int side : {0, 1})
    if (isCounter(index->operands[side]) && analysis::unchangedBy(index->operands[1 - side], written))
      return index->operands[1 - side];
  return std::nullopt;
}

bool sameOffset(const ExprPtr& a, const ExprPtr& b) { return a && b ? sameExpr(*a, *b) : !a && !b; }

// Whether the loop's body may end an iteration early or wait at a barrier: a statement of the
// body would not run in every iteration, or an addition after the loop would come too late.
bool jumpsOrWaits(const Stmt& loop) {
  bool found = false;
  walk(loop.body, [&](const Stmt& s) {
    found |= s.kind == StmtKind::Break || s.kind == StmtKind::Continue || s.kind == StmtKind::Return;
  });
  walkExprs(loop.body, [&](const Expr& e) { found |= isBarrier(e); });
  return found;
}

// Calls visit(e, conditional) for e and its subexpressions, `conditional` for those evaluated
// on some paths only (a branch of ?:, the right side of && and ||).
template <class F>
void walkNotingBranches(const ExprPtr& e, F&& visit, bool conditional = false) {
  if (!e) return;
  visit(*e, conditional);
  for (size_t k = 0; k < e->operands.size(); ++k) {
    bool branch = (e->kind == ExprKind::Select && k > 0) || (e->kind == ExprKind::Binary && isLogical(e->op) && k == 1);
    walkNotingBranches(e->operands[k], visit, conditional || branch);
  }
}

// `e` with every element of `buffer` replaced by the element of `lanes` at the loop's counter.
ExprPtr readFromLanes(const ExprPtr& e, const std::string& buffer, const ExprPtr& lanes, const ExprPtr& counter) {
  if (!e) return e;
  if (e->kind == ExprKind::Index && e->operands[0]->kind == ExprKind::Var && e->operands[0]->text == buffer)
    return index(lanes, counter);
  auto copy = std::make_shared<Expr>(*e);
  for (ExprPtr& op : copy->operands) op = readFromLanes(op, buffer, lanes, counter);
  return copy;
}

// The note parallel-adjoints put first on a plain addition (`x[o + k]: index injective over
// threads: plain +=`), taken off `s`'s comment: it now belongs to the addition after the loop.
std::string takeNote(Stmt& s, const Function& d) {
  const Param* p = d.param(s.lhs->operands[0]->text);
  std::string place = print(*index(var(p->of, p->type), s.lhs->operands[1])) + ": ";
  if (s.comment.rfind(place, 0) != 0) return {};
  size_t end = s.comment.find('\n');
  std::string note = s.comment.substr(0, end);
  s.comment = end == std::string::npos ? "" : s.comment.substr(end + 1);
  return note;
}

// A loop over a vector's lanes (its counter k from 0 to 3 for floats) that uses a buffer at o + k
// alone: a buffer it only reads is read before it into a local array, in one access; an adjoint
// it only adds to is summed in a local array, added after it in one access. Only statements of
// the loop's body itself count, outside branches of expressions: they run in every iteration, so
// the loop reads or adds to every lane.
class LaneLoops {
 public:
  explicit LaneLoops(const Function& d) : d_(d), names_(d) {}

  void run(StmtList& list) {
    for (size_t k = 0; k < list.size(); ++k) {
      StmtPtr s = list[k];
      run(s->body);
      run(s->elseBody);
      if (!isLoop(s->kind)) continue;
      auto [before, after] = moveLanes(*s);
      list.insert(list.begin() + static_cast<long>(k) + 1, after.begin(), after.end());
      list.insert(list.begin() + static_cast<long>(k), before.begin(), before.end());
      k += before.size() + after.size();
    }
  }

 private:
  const Function& d_;
  NameSet names_;

  struct Use {
    ExprPtr offset;  // o of the lanes o + k (null: 0)
    int uses = 0, additions = 0;
    bool ok = true;
  };

  // Per buffer of the loop, how it uses the lanes at o + k, when that is all it uses.
  std::map<std::string, Use> lanesUsed(const Stmt& loop, const std::string& counter, int lanes) {
    std::map<std::string, Use> used;
    std::map<std::string, int> mentions;
    std::set<std::string> written = analysis::writtenVariables(loop.body);
    for (const StmtPtr& top : loop.body)
      walk(top, [&](const Stmt& s) {
        auto note = [&](const Expr& e, bool conditional) {
          if (e.kind == ExprKind::Var) ++mentions[e.text];
          const Param* p = e.kind == ExprKind::Index ? vectorBuffer(*e.operands[0], d_) : nullptr;
          if (!p || lanesOf(p->type) != lanes) return;
          Use& u = used[p->name];
          std::optional<ExprPtr> offset = invariantOffset(e.operands[1], counter, written);
          if (offset && u.uses == 0) u.offset = *offset;
          u.ok &= offset && sameOffset(*offset, u.offset) && !conditional && &s == top.get();
          ++u.uses;
        };
        for (const ExprPtr& e : {s.lhs, s.expr}) walkNotingBranches(e, note);
        for (const ExprPtr& e : s.args) walkNotingBranches(e, note);
        bool addition = s.kind == StmtKind::Assign && s.op == Op::Add && !s.atomic && s.lhs->kind == ExprKind::Index;
        if (auto u = addition ? used.find(s.lhs->operands[0]->text) : used.end(); u != used.end())
          ++u->second.additions;
      });
    for (auto it = used.begin(); it != used.end();) {
      const Use& u = it->second;
      const Param* p = d_.param(it->first);
      bool only = u.ok && u.uses && mentions[it->first] == u.uses;
      bool readOnly = p->type.constPointee, addedTo = p->role == Role::Adjoint && u.additions == u.uses;
      it = only && (readOnly || addedTo) ? std::next(it) : used.erase(it);
    }
    return used;
  }

  // The statements before the loop (lanes read, sums declared) and after it (sums added).
  std::pair<StmtList, StmtList> moveLanes(Stmt& loop) {
    analysis::CountedLoop counted;
    int count = laneCount(loop, counted);
    if (count < 2 || jumpsOrWaits(loop)) return {};
    ExprPtr counter = var(counted.counter, counted.counterType);
    StmtList before, after;
    for (auto& [buffer, use] : lanesUsed(loop, counted.counter, count)) {
      const Param& p = *d_.param(buffer);
      Type lanesType = p.type.element();
      lanesType.arraySize = count;
      ExprPtr lanes = var(names_.fresh(buffer + "_lanes"), lanesType);
      ExprPtr memory = address(var(buffer, p.type), use.offset);
      if (p.type.constPointee) {
        before.push_back(withComment(decl(lanes->text, lanesType, nullptr),
                                     "the lanes of " + print(*memory) + " that the loop below reads"));
        before.push_back(eval(call("adjoint::copy_lanes", {lanes, memory}, kVoid)));
        walk(loop.body, [&](Stmt& s) {
          s.lhs = readFromLanes(s.lhs, buffer, lanes, counter);
          s.expr = readFromLanes(s.expr, buffer, lanes, counter);
          for (ExprPtr& e : s.args) e = readFromLanes(e, buffer, lanes, counter);
        });
        continue;
      }
      std::string note;
      walk(loop.body, [&](Stmt& s) {
        if (s.kind != StmtKind::Assign || !reads(s.lhs, buffer)) return;
        if (std::string n = takeNote(s, d_); !n.empty()) note = n;
        s.lhs = index(lanes, counter);
      });
      before.push_back(withComment(decl(lanes->text, lanesType, nullptr),
                                   "what the loop below adds to the lanes of " + print(*memory)));
      after.push_back(withComment(eval(call("adjoint::add_lanes", {memory, lanes}, kVoid)),
                                  note.empty() ? "" : note + ", in one access"));
    }
    return {before, after};
  }
};

// ---- A run of statements, one per lane of a vector ----

// What one statement does to lane `lane` of a vector in memory at buffer + base:
//   local[lane] op= buffer[base + lane]  (into the local), buffer[base + lane] op= local[lane]
//   (into memory), or buffer[base + lane] = 0.
struct LaneAccess {
  enum Direction { IntoLocal, IntoMemory, Zero } direction;
  Op op;
  ExprPtr buffer, base, local;
  int lane = 0, lanes = 0;

  bool sameVectorAs(const LaneAccess& o) const {
    return direction == o.direction && op == o.op && buffer->text == o.buffer->text && sameExpr(*base, *o.base) &&
           (!local || local->text == o.local->text);
  }
};

// A literal lane index as an int; -1 for any value no vector has a lane at.
int laneNumber(double c) { return c >= 0 && c < 16 && c == static_cast<int>(c) ? static_cast<int>(c) : -1; }

// buffer[base + c] for an integer literal c (c = 0: buffer[base]) of a vector buffer, and its c.
std::optional<std::pair<ExprPtr, int>> laneInMemory(const Expr& e, const Function& d) {
  if (e.kind != ExprKind::Index || !vectorBuffer(*e.operands[0], d)) return std::nullopt;
  const ExprPtr& at = e.operands[1];
  auto [base, lane] = literalOffset(*at);
  return std::pair{base == at.get() ? at : at->operands[0], laneNumber(lane)};
}

// local[c] of a local array as large as a vector of `buffer`'s elements, and c.
std::optional<int> laneOfLocal(const Expr& e, const Expr& buffer) {
  if (e.kind != ExprKind::Index || e.operands[0]->kind != ExprKind::Var || e.operands[1]->kind != ExprKind::Number)
    return std::nullopt;
  const Type& t = e.operands[0]->type;
  bool fits = !t.pointer && !t.shared && t.scalar == buffer.type.scalar && t.arraySize == lanesOf(buffer.type);
  return fits ? std::optional<int>(laneNumber(e.operands[1]->value)) : std::nullopt;
}

std::optional<LaneAccess> laneAccess(const Stmt& s, const Function& d) {
  if (s.kind != StmtKind::Assign || s.atomic || (s.op != Op::Assign && s.op != Op::Add)) return std::nullopt;
  auto into = laneInMemory(*s.lhs, d);
  auto from = laneInMemory(*s.expr, d);
  LaneAccess a{LaneAccess::Zero, s.op, nullptr, nullptr, nullptr};
  if (into && s.op == Op::Assign && isZero(s.expr)) {
    a.buffer = s.lhs->operands[0], a.base = into->first, a.lane = into->second;
  } else if (into) {
    std::optional<int> local = laneOfLocal(*s.expr, *s.lhs->operands[0]);
    if (local != into->second) return std::nullopt;
    a = {LaneAccess::IntoMemory, s.op, s.lhs->operands[0], into->first, s.expr->operands[0], into->second};
  } else if (from) {
    std::optional<int> local = laneOfLocal(*s.lhs, *s.expr->operands[0]);
    if (local != from->second) return std::nullopt;
    a = {LaneAccess::IntoLocal, s.op, s.expr->operands[0], from->first, s.lhs->operands[0], from->second};
  } else {
    return std::nullopt;
  }
  a.lanes = lanesOf(a.buffer->type);
  return a;
}

// The call doing what the run of statements did to every lane.
ExprPtr wholeVector(const LaneAccess& a) {
  ExprPtr memory = address(a.buffer, a.base);
  if (a.direction == LaneAccess::Zero)
    return call("adjoint::zero_lanes<" + std::to_string(a.lanes) + ">", {memory}, kVoid);
  std::string helper = a.op == Op::Add ? "adjoint::add_lanes" : "adjoint::copy_lanes";
  return a.direction == LaneAccess::IntoLocal ? call(helper, {a.local, memory}, kVoid)
                                              : call(helper, {memory, a.local}, kVoid);
}

class LaneRuns : public Rewriter {
 public:
  explicit LaneRuns(const Function& d) : d_(d) {}

 private:
  const Function& d_;

  void rewriteList(StmtList& body) override {
    StmtList out;
    for (size_t k = 0; k < body.size();) {
      size_t run = runAt(body, k);
      if (!run) {
        out.push_back(body[k++]);
        continue;
      }
      std::string comment;
      for (size_t j = k; j < k + run; ++j)
        if (!body[j]->comment.empty() && comment.find(body[j]->comment) == std::string::npos)
          comment += (comment.empty() ? "" : "\n") + body[j]->comment;
      StmtPtr whole = withComment(eval(wholeVector(*laneAccess(*body[k], d_))), comment);
      whole->loc = body[k]->loc;
      out.push_back(whole);
      k += run;
    }
    body = out;
  }

  // How many statements from `first` on access every lane of one vector once; 0 if they do not.
  size_t runAt(const StmtList& body, size_t first) const {
    std::optional<LaneAccess> a = laneAccess(*body[first], d_);
    if (!a || body.size() - first < static_cast<size_t>(a->lanes)) return 0;
    std::vector<bool> seen(static_cast<size_t>(a->lanes));
    for (size_t j = first; j < first + static_cast<size_t>(a->lanes); ++j) {
      std::optional<LaneAccess> b = laneAccess(*body[j], d_);
      if (!b || !b->sameVectorAs(*a) || b->lane < 0 || b->lane >= a->lanes || seen[static_cast<size_t>(b->lane)])
        return 0;
      seen[static_cast<size_t>(b->lane)] = true;
    }
    return static_cast<size_t>(a->lanes);
  }
};

}  // namespace

void moveLanesTogether(Function& d) {
  if (!d.kernel && !d.device) return;
  // A local pointer may alias an adjoint under another name: its loops are left alone.
  bool pointerLocals = false;
  walk(d.body, [&](const Stmt& s) { pointerLocals |= s.kind == StmtKind::Decl && s.type.pointer; });
  if (!pointerLocals) LaneLoops(d).run(d.body);
  LaneRuns(d).rewrite(d.body);
}

}  // namespace adjoint::transforms
