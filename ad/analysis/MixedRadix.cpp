#include "ad/analysis/MixedRadix.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "ad/analysis/Activity.h"
#include "ad/ir/Names.h"

namespace adjoint::analysis {

using namespace ir;

namespace {

// c * s1 * s2 * ... for an integer c and sizes s (sorted, repeats kept).
struct Monomial {
  long long coeff = 1;
  std::vector<std::string> sizes;

  Monomial times(const Monomial& o) const {
    Monomial m{coeff * o.coeff, sizes};
    m.sizes.insert(m.sizes.end(), o.sizes.begin(), o.sizes.end());
    std::sort(m.sizes.begin(), m.sizes.end());
    return m;
  }
  bool operator==(const Monomial& o) const { return coeff == o.coeff && sizes == o.sizes; }
  // this / d, where d divides it for all sizes: d's sizes among this one's, and d's literal
  // dividing this one's.
  std::optional<Monomial> over(const Monomial& d) const {
    if (d.coeff <= 0 || coeff % d.coeff != 0 ||
        !std::includes(sizes.begin(), sizes.end(), d.sizes.begin(), d.sizes.end()))
      return std::nullopt;
    Monomial q{coeff / d.coeff, {}};
    std::set_difference(sizes.begin(), sizes.end(), d.sizes.begin(), d.sizes.end(), std::back_inserter(q.sizes));
    return q;
  }
  // The order sums of digits are checked in: by the number of sizes, then the literal. Where one
  // monomial is at least another for all sizes, it does not come first.
  bool before(const Monomial& o) const {
    return sizes.size() != o.sizes.size() ? sizes.size() < o.sizes.size() : coeff < o.coeff;
  }
  // Whether this >= o wherever every size is at least 1 (both with positive literals).
  bool atLeast(const Monomial& o) const {
    return coeff >= o.coeff && std::includes(sizes.begin(), sizes.end(), o.sizes.begin(), o.sizes.end());
  }
};

// weight * ((g / low) % (high / low)), g the thread's global index; without high, weight * (g / low).
struct Digit {
  Monomial weight, low;
  std::optional<Monomial> high;
};

// The digits an index is made of, plus an offset the same in every thread (a sum of monomials).
struct Form {
  std::vector<Digit> digits;
  std::vector<Monomial> offset;
};

std::vector<Monomial> normalized(std::vector<Monomial> terms) {
  std::map<std::vector<std::string>, long long> sums;
  for (const Monomial& m : terms) sums[m.sizes] += m.coeff;
  std::vector<Monomial> out;
  for (const auto& [sizes, coeff] : sums)
    if (coeff != 0) out.push_back({coeff, sizes});
  return out;
}

Form scaled(Form f, const Monomial& by) {
  for (Digit& d : f.digits) d.weight = d.weight.times(by);
  for (Monomial& m : f.offset) m = m.times(by);
  return f;
}

// The single monomial a digit-free form is, if it is one (a size product: N * d, 3).
std::optional<Monomial> monomialOf(const std::optional<Form>& f) {
  if (!f || !f->digits.empty() || f->offset.size() > 1) return std::nullopt;
  return f->offset.empty() ? Monomial{0, {}} : f->offset[0];
}

}  // namespace

struct MixedRadix::Values {
  std::map<std::string, ExprPtr> known;  // null: not known here
  // Locals set under an if (idx < n) { x = e; }: e holds inside a later if of the same condition.
  std::map<std::string, std::pair<ExprPtr, ExprPtr>> guarded;
  std::vector<ExprPtr> guards;  // the conditions of the ifs around (their then branches)
};

MixedRadix::MixedRadix(const Function& kernel, const ThreadIndexing& threads, std::set<std::string> sizes)
    : threads_(threads), sizes_(std::move(sizes)), assigned_(assignedVariables(kernel.body)) {
  Values values;
  record(kernel.body, values);
}

namespace {

// e with each variable replaced by its value in `known`; null if one of them is not known. A
// variable the kernel assigns but that `known` lacks (a parameter advanced in place) is not known
// either; sizes and the CUDA built-ins stand for themselves.
ExprPtr valueOf(const ExprPtr& e, const std::map<std::string, ExprPtr>& known, const std::set<std::string>& assigned) {
  if (!e) return nullptr;
  bool unknown = false;
  ExprPtr out = substitute(e, [&](const Expr& v) -> ExprPtr {
    auto it = known.find(v.text);
    if (it != known.end()) {
      unknown |= !it->second;
      return it->second;
    }
    unknown |= assigned.count(v.text) > 0;
    return nullptr;
  });
  return unknown ? nullptr : out;
}

}  // namespace

// Walks the body in order, keeping the value of each local where known; each statement keeps the
// values it sees. A local assigned in a loop is not known in it or after it; one set in an if is
// not known after it, except in an if of the same condition (the reverse sweep's if (idx < n)
// repeating the forward sweep's).
void MixedRadix::record(const StmtList& body, Values& v) {
  for (const StmtPtr& s : body) {
    seen_.emplace(s.get(), Seen{v.known, v.guards});
    switch (s->kind) {
      case StmtKind::Decl:
        v.known[s->name] = s->type.isFloating() ? nullptr : valueOf(s->expr, v.known, assigned_);
        v.guarded.erase(s->name);
        break;
      case StmtKind::Assign:
        if (s->lhs->kind == ExprKind::Var) {
          ExprPtr value = s->op == Op::Assign ? s->expr : binary(s->op, s->lhs, s->expr);
          v.known[s->lhs->text] = s->lhs->type.isFloating() ? nullptr : valueOf(value, v.known, assigned_);
          v.guarded.erase(s->lhs->text);
        }
        break;
      case StmtKind::Block:
        record(s->body, v);
        break;
      case StmtKind::If: {
        ExprPtr condition = valueOf(s->expr, v.known, assigned_);
        Values then = v, otherwise = v;
        for (const auto& [name, set] : v.guarded)
          if (condition && sameExpr(*set.first, *condition)) then.known[name] = set.second;
        if (condition) then.guards.push_back(condition);
        record(s->body, then);
        record(s->elseBody, otherwise);
        const std::map<std::string, ExprPtr> before = v.known;
        for (Values* branch : {&then, &otherwise})
          for (const auto& [name, value] : branch->known) {
            auto was = before.find(name);
            if (was == before.end() || was->second == value) continue;
            bool guardedSet = branch == &then && s->elseBody.empty() && condition && value;
            v.known[name] = nullptr;
            if (guardedSet)
              v.guarded[name] = {condition, value};
            else
              v.guarded.erase(name);
          }
        break;
      }
      case StmtKind::For:
      case StmtKind::While:
      case StmtKind::DoWhile: {
        std::set<std::string> changed = assignedVariables({s});
        for (const std::string& name : changed) {
          v.known[name] = nullptr;
          v.guarded.erase(name);
        }
        Values inside = v;
        if (s->init) record({s->init}, inside);
        for (const std::string& name : changed) inside.known[name] = nullptr;
        record(s->body, inside);
        break;
      }
      default:
        break;
    }
  }
}

namespace {

class FormReader {
 public:
  FormReader(const ThreadIndexing& threads, const std::set<std::string>& sizes) : threads_(threads), sizes_(sizes) {}

  std::optional<Form> read(const Expr& expr) const {
    const Expr& e = stripCasts(expr);
    if (e.kind == ExprKind::Number && !e.type.isFloating() && e.value == std::floor(e.value))
      return Form{{}, normalized({{static_cast<long long>(e.value), {}}})};
    if (e.kind == ExprKind::Var && sizes_.count(e.text)) return Form{{}, {{1, {e.text}}}};
    if (threads_.isThreadIndex(e)) return Form{{Digit{{1, {}}, {1, {}}, std::nullopt}}, {}};
    if (e.kind != ExprKind::Binary) return std::nullopt;
    std::optional<Form> a = read(*e.operands[0]), b = read(*e.operands[1]);
    if (!a || !b) return std::nullopt;
    switch (e.op) {
      case Op::Add:
      case Op::Sub:
        if (e.op == Op::Sub && !b->digits.empty()) return std::nullopt;
        for (Monomial& m : b->offset) m.coeff = e.op == Op::Sub ? -m.coeff : m.coeff;
        a->digits.insert(a->digits.end(), b->digits.begin(), b->digits.end());
        a->offset.insert(a->offset.end(), b->offset.begin(), b->offset.end());
        a->offset = normalized(a->offset);
        return a;
      case Op::Mul:
        if (std::optional<Monomial> m = monomialOf(b)) return scaled(*a, *m);
        if (std::optional<Monomial> m = monomialOf(a)) return scaled(*b, *m);
        return std::nullopt;
      case Op::Div:
      case Op::Rem:
        return digitOf(*a, monomialOf(b), e.op);
      default:
        return std::nullopt;
    }
  }

 private:
  const ThreadIndexing& threads_;
  const std::set<std::string>& sizes_;

  // (g / low) % (high / low) divided by, or modulo, m: the digits from low * m up, or below it.
  // ((g / low) % (high / low)) / m is (g / (low * m)) % (high / (low * m)) where low * m divides
  // high; its % m is (g / low) % m likewise.
  static std::optional<Form> digitOf(const Form& f, const std::optional<Monomial>& m, Op op) {
    if (!m || m->coeff < 1 || f.digits.size() != 1 || !f.offset.empty() || !(f.digits[0].weight == Monomial{1, {}}))
      return std::nullopt;
    Digit d = f.digits[0];
    Monomial cut = d.low.times(*m);
    if (d.high && !d.high->over(cut)) return std::nullopt;
    if (op == Op::Div)
      d.low = cut;
    else
      d.high = cut;
    return Form{{d}, {}};
  }
};

bool sameDigits(const std::vector<Digit>& a, const std::vector<Digit>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (!(a[k].weight == b[k].weight) || !(a[k].low == b[k].low) || a[k].high.has_value() != b[k].high.has_value() ||
        (a[k].high && !(*a[k].high == *b[k].high)))
      return false;
  return true;
}

// Whether the digits, ordered by where they start, tile g: from 1, each from where the one
// before ends, the last unbounded, or ending at H no smaller than P where g < P (`bound`).
bool tiles(const std::vector<Digit>& digits, const std::optional<Monomial>& bound) {
  Monomial at{1, {}};
  for (size_t k = 0; k < digits.size(); ++k) {
    if (!(digits[k].low == at)) return false;
    bool last = k + 1 == digits.size();
    if (!last && !digits[k].high) return false;
    if (last && digits[k].high && !(bound && digits[k].high->atLeast(*bound))) return false;
    if (digits[k].high) at = *digits[k].high;
  }
  return true;
}

// A weight and the number of values its digit takes (none: unbounded).
struct Place {
  Monomial weight;
  std::optional<Monomial> range;
};

// Whether, ordered by weight, each weight is at least the one before times that one's range.
bool nests(std::vector<Place> places) {
  std::sort(places.begin(), places.end(), [](const Place& a, const Place& b) { return a.weight.before(b.weight); });
  for (size_t k = 0; k < places.size(); ++k) {
    if (places[k].weight.coeff < 1) return false;
    if (k == 0) continue;
    const Place& below = places[k - 1];
    if (!below.range || !places[k].weight.atLeast(below.weight.times(*below.range))) return false;
  }
  return true;
}

// Offsets that differ between the uses: k * M for one size product M and literals k >= 0, as
// one more digit (weight M, range the largest k + 1); null where they are all the same; false
// where they differ otherwise.
bool offsetDigit(const std::vector<Form>& forms, std::optional<Place>& place) {
  if (std::all_of(forms.begin(), forms.end(), [&](const Form& f) { return f.offset == forms.front().offset; }))
    return true;
  std::optional<Monomial> unit;
  long long most = 0;
  for (const Form& f : forms) {
    if (f.offset.size() > 1 || (f.offset.size() == 1 && f.offset[0].coeff < 0)) return false;
    if (f.offset.empty()) continue;
    if (unit && f.offset[0].sizes != unit->sizes) return false;
    unit = Monomial{1, f.offset[0].sizes};
    most = std::max(most, f.offset[0].coeff);
  }
  place = Place{*unit, Monomial{most + 1, {}}};
  return true;
}

// P for a guard g < P (or P > g) among `guards`, g the thread's index and P a size product.
std::optional<Monomial> threadBound(const std::vector<ExprPtr>& guards, const FormReader& reader,
                                    const ThreadIndexing& threads) {
  for (const ExprPtr& guard : guards) {
    const Expr& c = stripCasts(*guard);
    if (!isOp(c, Op::Lt) && !isOp(c, Op::Gt)) continue;
    bool less = isOp(c, Op::Lt);
    std::optional<Monomial> limit = monomialOf(reader.read(*c.operands[less ? 1 : 0]));
    if (threads.isThreadIndex(*c.operands[less ? 0 : 1]) && limit && limit->coeff >= 1) return limit;
  }
  return std::nullopt;
}

}  // namespace

bool MixedRadix::distinctOverThreads(const std::vector<Use>& uses, std::set<std::string>& positive) const {
  if (uses.empty()) return false;
  FormReader reader(threads_, sizes_);
  std::vector<Form> forms;
  std::optional<Monomial> bound;
  for (size_t k = 0; k < uses.size(); ++k) {
    auto at = uses[k].index ? seen_.find(uses[k].stmt) : seen_.end();
    const Seen* seen = at != seen_.end() ? &at->second : nullptr;
    ExprPtr index = seen ? valueOf(uses[k].index, seen->known, assigned_) : nullptr;
    std::optional<Form> f = index ? reader.read(*index) : std::nullopt;
    if (!f || f->digits.empty()) return false;
    std::sort(f->digits.begin(), f->digits.end(), [](const Digit& a, const Digit& b) { return a.low.before(b.low); });
    if (!forms.empty() && !sameDigits(forms.front().digits, f->digits)) return false;
    forms.push_back(*f);
    // The bound on the thread's index, where every use has the same one.
    std::optional<Monomial> b = threadBound(seen->guards, reader, threads_);
    if (k == 0 || (bound && b && *bound == *b))
      bound = b;
    else
      bound.reset();
  }
  const std::vector<Digit>& digits = forms.front().digits;
  if (!tiles(digits, bound)) return false;
  std::vector<Place> places;
  for (const Digit& d : digits) places.push_back({d.weight, d.high ? d.high->over(d.low) : std::nullopt});
  std::optional<Place> offsets;
  if (!offsetDigit(forms, offsets)) return false;
  if (offsets) places.push_back(*offsets);
  // Where the top digit g / D weighs less than another, its bound: below P / D where g < P.
  if (!nests(places)) {
    if (!bound || !bound->over(digits.back().low)) return false;
    places[digits.size() - 1].range = bound->over(digits.back().low);
    if (!nests(places)) return false;
  }
  auto sizesOf = [&](const Monomial& m) { positive.insert(m.sizes.begin(), m.sizes.end()); };
  for (const Place& p : places) {
    sizesOf(p.weight);
    if (p.range) sizesOf(*p.range);
  }
  for (const Digit& d : digits) sizesOf(d.low);
  if (digits.back().high) sizesOf(*bound);  // the tiling's end
  return true;
}

}  // namespace adjoint::analysis
