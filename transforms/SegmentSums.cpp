#include "transforms/SegmentSums.h"

#include <algorithm>
#include <functional>

#include "ad/analysis/Activity.h"
#include "ad/ir/Printer.h"

namespace adjoint::transforms {

using namespace ir;
using analysis::Spread;

namespace {

// The operands of a chain of `op` (a sum's terms, a product's factors), casts aside.
void operandsOf(const ExprPtr& e, Op op, std::vector<ExprPtr>& out) {
  const Expr& x = stripCasts(*e);
  if (isOp(x, op) && x.operands.size() == 2) {
    for (const ExprPtr& o : x.operands) operandsOf(o, op, out);
    return;
  }
  out.push_back(e);
}

std::vector<ExprPtr> operandsOf(const ExprPtr& e, Op op) {
  std::vector<ExprPtr> out;
  operandsOf(e, op, out);
  return out;
}

bool same(const ExprPtr& a, const ExprPtr& b) { return sameExpr(stripCasts(*a), stripCasts(*b)); }

bool hasFactor(const ExprPtr& term, const ExprPtr& width) {
  std::vector<ExprPtr> factors = operandsOf(term, Op::Mul);
  return std::any_of(factors.begin(), factors.end(), [&](const ExprPtr& f) { return same(f, width); });
}

// The terms of the sum `e` without the factor `width`: its column in rows of that width, where
// those terms lie in [0, width).
std::vector<ExprPtr> columnTerms(const ExprPtr& e, const ExprPtr& width) {
  std::vector<ExprPtr> column;
  for (const ExprPtr& t : operandsOf(e, Op::Add))
    if (!hasFactor(t, width)) column.push_back(t);
  return column;
}

// `have` without the terms of `take` (each once, casts aside): false where one is missing.
bool withoutTerms(std::vector<ExprPtr>& have, const std::vector<ExprPtr>& take) {
  for (const ExprPtr& t : take) {
    auto it = std::find_if(have.begin(), have.end(), [&](const ExprPtr& h) { return same(h, t); });
    if (it == have.end()) return false;
    have.erase(it);
  }
  return true;
}

ExprPtr product(const std::vector<ExprPtr>& factors) {
  ExprPtr p = factors.front();
  for (size_t k = 1; k < factors.size(); ++k) p = mul(p, factors[k]);
  return p;
}

ExprPtr sum(const std::vector<ExprPtr>& terms) {
  if (terms.empty()) return number(0, Type::integer());
  ExprPtr s = terms.front();
  for (size_t k = 1; k < terms.size(); ++k) s = add(s, terms[k]);
  return s;
}

// `target`'s column terms without those of the anchor's, `at`, in rows of `width`; false where
// one of at's is missing. A term x of at's stands for the x % width of target's too: at's element
// x is (x / width) * width + x % width (out_bar[idx] beside wte_bar[ids[idx / C] * C + idx % C]),
// and x / width goes into at's row (`quotients`).
bool withoutColumn(std::vector<ExprPtr>& target, const std::vector<ExprPtr>& at, const ExprPtr& width,
                   std::vector<ExprPtr>& quotients) {
  auto remainderOf = [&](const ExprPtr& h, const std::function<bool(const ExprPtr&)>& x) {
    const Expr& rem = stripCasts(*h);
    return isOp(rem, Op::Rem) && same(rem.operands[1], width) && x(rem.operands[0]);
  };
  for (auto it = target.begin(); it != target.end(); ++it) {  // at's terms together: x % width
    if (remainderOf(*it, [&](const ExprPtr& x) {
          std::vector<ExprPtr> terms = operandsOf(x, Op::Add);
          return terms.size() == at.size() && withoutTerms(terms, at);
        })) {
      quotients.push_back(div(sum(at), width));
      target.erase(it);
      return true;
    }
  }
  for (const ExprPtr& t : at) {
    auto it = std::find_if(target.begin(), target.end(), [&](const ExprPtr& h) {
      return same(h, t) || remainderOf(h, [&](const ExprPtr& x) { return same(x, t); });
    });
    if (it == target.end()) return false;
    if (!same(*it, t)) quotients.push_back(div(t, width));
    target.erase(it);
  }
  return true;
}

// Joins the terms (x / d) * d * m and (x % d) * m of `terms` into x * m once; false where no two
// join. (x / d) * d + x % d is x for any d other than 0: C++'s division truncates, its remainder
// takes x's sign.
bool joinOneDivision(std::vector<ExprPtr>& terms) {
  for (size_t i = 0; i < terms.size(); ++i) {
    std::vector<ExprPtr> quotient = operandsOf(terms[i], Op::Mul);
    for (size_t q = 0; q < quotient.size(); ++q) {
      const Expr& division = stripCasts(*quotient[q]);
      if (!isOp(division, Op::Div)) continue;
      const ExprPtr &x = division.operands[0], &d = division.operands[1];
      std::vector<ExprPtr> m = quotient;
      m.erase(m.begin() + static_cast<long>(q));
      if (!withoutTerms(m, {d})) continue;
      for (size_t j = 0; j < terms.size(); ++j) {
        std::vector<ExprPtr> remainder = operandsOf(terms[j], Op::Mul);
        auto r = std::find_if(remainder.begin(), remainder.end(), [&](const ExprPtr& f) {
          const Expr& rem = stripCasts(*f);
          return isOp(rem, Op::Rem) && same(rem.operands[0], x) && same(rem.operands[1], d);
        });
        if (j == i || r == remainder.end()) continue;
        remainder.erase(r);
        std::vector<ExprPtr> rest = remainder;
        if (rest.size() != m.size() || !withoutTerms(rest, m)) continue;
        m.insert(m.begin(), x);
        terms[i] = product(m);
        terms.erase(terms.begin() + static_cast<long>(j));
        return true;
      }
    }
  }
  return false;
}

// e's sum with Euclid's divisions joined as far as they go: b * T * C + t * C + c, for b = bt / T,
// t = bt % T, bt = idx / C and c = idx % C, is idx.
ExprPtr joinDivisions(const ExprPtr& e) {
  std::vector<ExprPtr> terms = operandsOf(e, Op::Add);
  while (joinOneDivision(terms)) {
    std::vector<ExprPtr> flat;
    for (const ExprPtr& t : terms) operandsOf(t, Op::Add, flat);
    terms = flat;
  }
  return sum(terms);
}

// The terms of the sum `e` with the factor `width`, each divided by it: e's row in rows of that
// width.
std::vector<ExprPtr> rowTerms(const ExprPtr& e, const ExprPtr& width) {
  std::vector<ExprPtr> row;
  for (const ExprPtr& t : operandsOf(e, Op::Add)) {
    std::vector<ExprPtr> factors = operandsOf(t, Op::Mul);
    auto w = std::find_if(factors.begin(), factors.end(), [&](const ExprPtr& f) { return same(f, width); });
    if (w == factors.end()) continue;
    factors.erase(w);
    row.push_back(factors.empty() ? number(1, Type::integer()) : product(factors));
  }
  return row;
}

// e with its casts dropped and every sum's divisions joined, for comparing forms.
ExprPtr normalized(const ExprPtr& e) {
  const Expr& x = stripCasts(*e);
  if (isOp(x, Op::Add)) {
    std::vector<ExprPtr> terms;
    for (const ExprPtr& t : operandsOf(e, Op::Add)) terms.push_back(normalized(t));
    return joinDivisions(sum(terms));
  }
  auto copy = std::make_shared<Expr>(x);
  for (ExprPtr& o : copy->operands) o = normalized(o);
  return copy;
}

// Whether `key` varies between threads only through `row`: besides row it reads the kernel's
// scalar parameters it never assigns (`invariant`), its arrays and literals.
bool onlyThrough(const ExprPtr& key, const ExprPtr& row, const Function& kernel,
                 const std::set<std::string>& invariant) {
  if (sameExpr(*key, *row)) return true;
  if (key->kind == ExprKind::Var) {
    const Param* p = kernel.param(key->text);
    return invariant.count(key->text) || (p && p->type.pointer);
  }
  return std::all_of(key->operands.begin(), key->operands.end(),
                     [&](const ExprPtr& o) { return onlyThrough(o, row, kernel, invariant); });
}

// The names in scope at the addition besides the kernel's parameters: the locals the kernel
// declares at its top (what the forward sweep records for the reverse) and those the target's
// index reads there.
std::set<std::string> namesInScope(const Function& kernel, const ExprPtr& index) {
  std::set<std::string> names = analysis::readVariables(index);
  for (const StmtPtr& s : kernel.body)
    if (s->kind == StmtKind::Decl) names.insert(s->name);
  return names;
}

// Whether every name `e` reads is in scope at the addition (a CUDA built-in: a name with a dot).
bool inScope(const Function& kernel, const ExprPtr& e, const std::set<std::string>& names) {
  for (const std::string& v : analysis::readVariables(e))
    if (!kernel.param(v) && !names.count(v) && v.find('.') == std::string::npos) return false;
  return true;
}

// The counters of the loops around `s` in `body` (a while loop's: a name no index reads); false
// where s is not in body.
bool loopsAround(const StmtList& body, const Stmt& s, std::vector<std::string>& counters) {
  for (const StmtPtr& t : body) {
    if (t.get() == &s) return true;
    bool loop = t->kind == StmtKind::For || t->kind == StmtKind::While || t->kind == StmtKind::DoWhile;
    if (loop) counters.push_back(t->kind == StmtKind::For && t->init ? t->init->name : "while");
    if (loopsAround(t->body, s, counters) || loopsAround(t->elseBody, s, counters)) return true;
    if (loop) counters.pop_back();
  }
  return false;
}

// Whether the anchor `at` reads the counter of every loop around the addition (`counters`):
// another run of it, at another element, may then pick another row; one element's runs all pick
// the same (or adjoint::add_row_runs stops the kernel).
bool followsLoops(const std::vector<std::string>& counters, const Stmt& s, const ExprPtr& at,
                  const analysis::ThreadIndexing& threads) {
  ExprPtr expanded = threads.expandedAt(at, s);
  return std::all_of(counters.begin(), counters.end(), [&](const std::string& c) { return reads(expanded, c); });
}

// Whether `at`, an index the thread owns, anchors the addition at `target` (both expanded) in
// rows of `width`: the two agree modulo width, but for target's counter `extra` (at most one:
// a lane of a pack), and the target's row (its key) varies only with at's.
bool anchors(const ExprPtr& at, const ExprPtr& target, const ExprPtr& width, const Function& kernel,
             const std::set<std::string>& invariant, std::vector<ExprPtr>& extra) {
  extra = columnTerms(target, width);
  std::vector<ExprPtr> row = rowTerms(at, width);
  if (!withoutColumn(extra, columnTerms(at, width), width, row) || extra.size() > 1) return false;
  return onlyThrough(normalized(sum(rowTerms(target, width))), normalized(sum(row)), kernel, invariant);
}

}  // namespace

std::optional<RowAnchor> findRowAnchor(const Function& kernel, const analysis::ThreadIndexing& threads,
                                       const std::set<std::string>& invariant, const std::vector<IndexUse>& uses,
                                       const Stmt& s, const ExprPtr& index) {
  std::vector<std::string> counters;
  if (!loopsAround(kernel.body, s, counters)) return std::nullopt;
  ExprPtr target = threads.expandedAt(index, s);
  std::set<std::string> names = namesInScope(kernel, index);
  for (const ExprPtr& term : operandsOf(target, Op::Add))
    for (const ExprPtr& width : operandsOf(term, Op::Mul)) {
      const Expr& w = stripCasts(*width);
      if (w.kind != ExprKind::Var || !invariant.count(w.text) || w.type.isFloating()) continue;
      for (const IndexUse& u : uses) {
        auto [written, lane] = literalOffset(*u.index);
        ExprPtr base = std::make_shared<Expr>(*written);
        std::vector<ExprPtr> extra;
        if (!inScope(kernel, base, names) ||
            !anchors(threads.expandedAt(base, *u.stmt), target, width, kernel, invariant, extra))
          continue;
        // The thread's own rows (ThreadIndexing::rowStart) at the same column.
        BlockShape needs;
        if (extra.empty() && lane == 0 && threads.rowStart(u.index, s, needs) &&
            followsLoops(counters, s, base, threads))
          return RowAnchor{base, width, needs};
        // An index distinct over threads, or its lanes: base + k for a counter k in [0, w), base's
        // stride at least w (a pack's elements, idx + k for idx = 4 * g).
        ExprPtr distinct = joinDivisions(threads.expandedAt(base, s));
        ExprPtr at = extra.empty() ? base : add(base, extra.front());
        if (threads.spread(distinct) != Spread::GridInjective || !followsLoops(counters, s, at, threads)) continue;
        if (extra.empty()) return RowAnchor{at, width, {}};
        const Expr& k = stripCasts(*extra.front());
        ExprPtr bound = k.kind == ExprKind::Var ? threads.counterRange(k.text).bound : nullptr;
        if (bound && bound->kind == ExprKind::Number && bound->value <= threads.stride(*distinct))
          return RowAnchor{at, width, {}};
      }
    }
  return std::nullopt;
}

namespace {

Type keysType() { return Type::integer("unsigned int", true).pointerTo(false); }

}  // namespace

SegmentAddition addToSegment(Function& d, NameSet& names, const ExprPtr& target, const analysis::RunSlot& run,
                             const ExprPtr& value) {
  const std::string& bar = target->operands[0]->text;
  Type values = d.param(bar)->type.element().pointerTo(false);
  Function::Segments g{names.fresh(bar + "_keys"), names.fresh(bar + "_values"), names.fresh(bar + "_slots"), bar,
                       run.perThread};
  d.segments.push_back(g);
  d.params.push_back(Param{g.keys, keysType(), Role::SegmentKeys});
  d.params.push_back(Param{g.values, values, Role::SegmentValues});
  Type wide = Type::integer("long long");
  return {call("adjoint::add_to_segment",
               {var(g.keys, keysType()), var(g.values, values), run.slot, target->operands[0],
                cast(wide, target->operands[1]), value},
               Type::of(Scalar::Void)),
          ": threads may share the index: each run's (index, value) pair in a slot\nof " + g.keys + " and " + g.values +
              "; the launcher sorts them by index and adds in slot order"};
}

SegmentAddition addToRowSegment(Function& d, NameSet& names, const ExprPtr& target, const analysis::RunSlot& run,
                                const RowAnchor& anchor, const ExprPtr& value) {
  const std::string& bar = target->operands[0]->text;
  Type values = d.param(bar)->type.element().pointerTo(false);
  Type wide = Type::integer("long long");
  Function::Segments g{names.fresh(bar + "_keys"),
                       names.fresh(bar + "_values"),
                       names.fresh(bar + "_slots"),
                       bar,
                       run.perThread,
                       anchor.width,
                       names.fresh(bar + "_width"),
                       names.fresh(bar + "_row_keys"),
                       names.fresh(bar + "_rows")};
  d.segments.push_back(g);
  d.params.push_back(Param{g.rowKeys, keysType(), Role::SegmentKeys});
  d.params.push_back(Param{g.keys, keysType(), Role::SegmentKeys});
  d.params.push_back(Param{g.values, values, Role::SegmentValues});
  d.params.push_back(Param{g.rows, wide, Role::SegmentRows});
  d.plainAddBlocks.add(anchor.needs);
  return {call("adjoint::add_to_row_segment",
               {var(g.rowKeys, keysType()), var(g.keys, keysType()), var(g.values, values), var(g.rows, wide),
                target->operands[0], cast(wide, anchor.at), cast(wide, target->operands[1]), cast(wide, anchor.width),
                value},
               Type::of(Scalar::Void)),
          ": threads may share the row: the value in " + g.values + " at the thread's\nown element " +
              print(*anchor.at) + ", the row's key in " + g.rowKeys +
              "; the launcher sorts the rows by\nkey and adds each key's rows column by column, in row order"};
}

}  // namespace adjoint::transforms
