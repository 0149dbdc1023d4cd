// Numerical verification of generated derivatives, for any signature Adjoint generates.
//
//   adjoint::verify("loss", loss, loss_grad, loss_jvp, options)
//
// builds random arguments from the forward function's parameter types (floating scalars and
// arrays are inputs, arrays behind non-const pointers or references to std::vector / std::array
// are also outputs, integers are sizes) and
// checks, in double:
//   1. forward mode against central finite differences along a random direction v,
//   2. the dot-product test <J v, w> == <v, J^T w> between forward and reverse mode,
//   3. every component of the gradient of <F(x), w> against central finite differences.
// Finite differences are central and Richardson-extrapolated, accurate to about h^4; one that
// misses the tolerance is taken again with a step 4 times wider (less rounding), the closer counts.
// Where finite differences with steps h and h/8 disagree, a branch or kink lies within the step:
// that comparison is reported as skipped, not passed (the dot-product test still runs).
// F(x) is the return value (weight 1: `_grad` seeds it with 1) followed by every output array.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace adjoint {

struct VerifyOptions {
  int n = 6;                  // value of every integer parameter not listed in `ints`
  std::vector<long> ints;     // values of the integer parameters, in order
  size_t length = 64;         // elements of every array
  double lo = 0.5, hi = 1.5;  // range of random input values
  // The range of parameter k's values, by position; where lo > hi (or k is past the end), [lo, hi].
  std::vector<std::pair<double, double>> ranges;
  double step = 1e-5;         // finite-difference step (relative to max(1, |x|))
  double fdTolerance = 1e-6;  // relative error allowed against finite differences
  double dotTolerance = 1e-10;
  unsigned seed = 12345;
  std::vector<std::string> names;  // parameter names for the error table (default: by position)
  bool table = false;              // print each differentiated parameter's worst errors
  // Code computing in float gets a larger step and float-sized tolerances.
  double floatStep = 4e-3;
  double floatFdTolerance = 2e-3;
  double floatDotTolerance = 1e-5;
};

// The fields of a struct S as std::tie(s.x, s.y, ...): `static auto of(S& s)`. `adjoint check`
// specializes it for the structs the checked function takes, where the test has no
// adjoint_fields of its own.
template <class S>
struct StructFields;

namespace detail {

// One parameter: its values, and for differentiated ones their adjoints and tangents. A floating
// parameter left out of `wrt` is still an input, held fixed.
template <class A, bool InWrt>
struct Slot {
  using Pointee = std::remove_pointer_t<std::remove_reference_t<A>>;
  // A pointer to arrays (double (*)[3], a parameter double a[][3]) points to rows of E.
  using Row = std::remove_cv_t<Pointee>;
  using E = std::remove_all_extents_t<Row>;
  static constexpr size_t rowLength = sizeof(Row) / sizeof(E);
  // A scalar by non-const reference (double& out) is an array of one element, its derivatives
  // references too (passed through std::ref, so that the calls' argument tuples hold references);
  // by const reference it is an input, as by value.
  static constexpr bool reference = std::is_lvalue_reference_v<A> && !std::is_const_v<Pointee>;
  static constexpr bool pointer = std::is_pointer_v<A> || reference;
  static constexpr bool output = pointer && !std::is_const_v<Pointee> && std::is_floating_point_v<E>;
  static constexpr bool floating = std::is_floating_point_v<E> && (InWrt || output);
  static constexpr bool isStruct = false;
  static constexpr size_t fixedLength = reference ? 1 : 0;  // pointers: options.length elements (rows)

  std::vector<E> initial, value, bar, dot, direction, weight;

  auto arg() {
    if constexpr (reference)
      return std::ref(value[0]);
    else if constexpr (pointer)
      return reinterpret_cast<Row*>(value.data());
    else
      return static_cast<E>(value[0]);
  }
  auto dotArg() {
    if constexpr (reference)
      return std::ref(dot[0]);
    else if constexpr (pointer)
      return reinterpret_cast<A>(dot.data());
    else
      return dot[0];
  }
  auto barArg() {
    if constexpr (reference)
      return std::ref(bar[0]);
    else
      return reinterpret_cast<Row*>(bar.data());
  }
  void reset() { value = initial; }
  void sync() {}  // after a call: what it wrote is already in value, dot and bar
};

// |a - b| relative to the larger magnitude; magnitudes below `floor` count as `floor`, so that a
// derivative that should vanish is compared absolutely. A NaN or infinity is an infinite error.
inline double relativeError(double a, double b, double floor = 1e-4) {
  if (!std::isfinite(a) || !std::isfinite(b)) return HUGE_VAL;
  return std::fabs(a - b) / std::max({std::fabs(a), std::fabs(b), floor});
}

// The fields of a std::pair and a std::tuple, as a test's adjoint_fields gives those of its structs.
template <class A, class B>
auto adjoint_fields(std::pair<A, B>& p) {
  return std::tie(p.first, p.second);
}
template <class... T>
auto adjoint_fields(std::tuple<T...>& t) {
  return std::apply([](auto&... fields) { return std::tie(fields...); }, t);
}

// Whether the test gives S's fields itself: `adjoint_fields(S&)`, a function next to S (found by
// argument-dependent lookup) returning std::tie of the fields.
template <class S, class = void>
struct HasOwnFields : std::false_type {};
template <class S>
struct HasOwnFields<S, std::void_t<decltype(adjoint_fields(std::declval<S&>()))>> : std::true_type {};

// std::tie of the fields of s: the test's adjoint_fields, else adjoint::StructFields<S>, which
// `adjoint check` writes for the structs of the function it checks.
template <class S>
auto fieldsOf(S& s) {
  if constexpr (HasOwnFields<S>::value)
    return adjoint_fields(s);
  else
    return StructFields<S>::of(s);
}

// A struct parameter (by value or const reference), its fields reached through fieldsOf.
template <class A, bool InWrt>
struct StructSlot {
  using S = std::remove_cv_t<std::remove_reference_t<A>>;
  using E = double;
  static constexpr bool pointer = false;
  static constexpr bool output = false;
  static constexpr bool floating = InWrt;
  static constexpr bool isStruct = true;
  static constexpr size_t fixedLength = 0;

  std::vector<double> initial, bar, dot, direction, weight;
  S object{}, dotObject{}, barObject{};

  static size_t count() {
    S s{};
    return std::tuple_size_v<decltype(fieldsOf(s))>;
  }
  static void store(S& s, const std::vector<double>& v) {
    size_t k = 0;
    std::apply([&](auto&... f) { ((f = static_cast<std::decay_t<decltype(f)>>(v[k++])), ...); }, fieldsOf(s));
  }
  static std::vector<double> load(S& s) {
    std::vector<double> v;
    std::apply([&](auto&... f) { (v.push_back(static_cast<double>(f)), ...); }, fieldsOf(s));
    return v;
  }
  void reset() { store(object, initial); }
  A arg() { return object; }
  A dotArg() {
    store(dotObject, dot);
    return dotObject;
  }
  S* barArg() {
    store(barObject, bar);
    return &barObject;
  }
  void sync() { bar = load(barObject); }
};

template <class C>
struct Container : std::false_type {
  using Element = C;
  static constexpr size_t fixedLength = 0;
};
template <class E, class Allocator>
struct Container<std::vector<E, Allocator>> : std::true_type {
  using Element = E;
  static constexpr size_t fixedLength = 0;  // options.length elements
};
template <class E, size_t N>
struct Container<std::array<E, N>> : std::true_type {
  using Element = E;
  static constexpr size_t fixedLength = N;
};

// A std::vector or std::array parameter, by reference (an output when not const): its values
// are kept as an array's are, and passed as the container (through std::ref, so that the calls'
// argument tuples hold references).
template <class A, bool InWrt>
struct ContainerSlot {
  using C = std::remove_cv_t<std::remove_reference_t<A>>;
  using E = typename Container<C>::Element;
  static constexpr bool pointer = true;
  static constexpr bool output = !std::is_const_v<std::remove_reference_t<A>> && std::is_floating_point_v<E>;
  static constexpr bool floating = std::is_floating_point_v<E> && (InWrt || output);
  static constexpr bool isStruct = false;
  static constexpr size_t fixedLength = Container<C>::fixedLength;
  static constexpr size_t rowLength = 1;

  std::vector<E> initial, value, bar, dot, direction, weight;
  C object{}, dotObject{}, barObject{};

  static void store(C& c, const std::vector<E>& v) {
    if constexpr (fixedLength == 0) c.resize(v.size());
    std::copy(v.begin(), v.end(), c.begin());
  }
  void reset() { value = initial; }
  std::reference_wrapper<C> arg() {
    store(object, value);
    return object;
  }
  std::reference_wrapper<C> dotArg() {
    store(dotObject, dot);
    return dotObject;
  }
  std::reference_wrapper<C> barArg() {
    store(barObject, bar);
    return barObject;
  }
  void sync() {
    value.assign(object.begin(), object.end());
    dot.assign(dotObject.begin(), dotObject.end());
    bar.assign(barObject.begin(), barObject.end());
  }
};

template <class A>
using Bare = std::remove_cv_t<std::remove_reference_t<A>>;

template <class A, bool InWrt>
using SlotFor = std::conditional_t<Container<Bare<A>>::value, ContainerSlot<A, InWrt>,
                                   std::conditional_t<std::is_class_v<Bare<A>>, StructSlot<A, InWrt>, Slot<A, InWrt>>>;

template <class R, unsigned long long Wrt, class Positions, class... A>
class Verifier;

template <class R, unsigned long long Wrt, size_t... I, class... A>
class Verifier<R, Wrt, std::index_sequence<I...>, A...> {
 public:
  Verifier(const std::string& name, const VerifyOptions& o) : name_(name), o_(o), rng_(o.seed) {
    constexpr bool usesFloat =
        std::is_same_v<R, float> ||
        (std::is_same_v<std::remove_cv_t<std::remove_all_extents_t<std::remove_pointer_t<A>>>, float> || ...) ||
        (std::is_same_v<typename Container<Bare<A>>::Element, float> || ...);
    if (usesFloat) {
      o_.step = o.floatStep;
      o_.fdTolerance = o.floatFdTolerance;
      o_.dotTolerance = o.floatDotTolerance;
    }
    init();
  }

  // Runs f once at the inputs the checks would use.
  template <class Forward>
  void evaluate(Forward f) {
    outputs(f);
  }

  template <class Forward, class Grad, class Jvp>
  int run(Forward f, Grad grad, Jvp jvp) {
    int failures = 0;
    for (double v : outputs(f))
      if (!std::isfinite(v)) return report("the forward value is finite at the test point", HUGE_VAL, 0);
    // Finite differences carry rounding error in proportion to the size of what they difference.
    fdFloor_ = 1e-4 * std::max(1.0, std::fabs(weighted(outputs(f))));
    std::vector<double> fd = finiteDirectional(f, o_.step);
    std::vector<double> tangent = forwardMode(jvp);
    if (worstError(tangent, fd) > o_.fdTolerance)  // (see wider below)
      if (std::vector<double> wide = finiteDirectional(f, kWider * o_.step);
          worstError(tangent, wide) < worstError(tangent, fd))
        fd = wide;
    if (worstError(tangent, fd) > o_.fdTolerance && !smooth(fd, finiteDirectional(f, o_.step / 8)))
      std::printf("  %-8s %-40s skipped: the function is not smooth there\n", name_.c_str(),
                  "jvp vs finite differences");
    else
      failures += report("jvp vs finite differences", worstError(tangent, fd), o_.fdTolerance);
    double jv_w = weighted(tangent);
    double v_jtw = reverseMode(grad);
    // Relative to the size of the terms summed, so that cancellation between them is no failure.
    double terms = std::max(weighted(tangent, true), dotTerms_);
    failures +=
        report("dot product <Jv,w> vs <v,J^T w>", relativeError(jv_w, v_jtw, std::max(terms, 1e-300)), o_.dotTolerance);
    // A gradient writes only adjoints: the arrays it is given come back as they went in.
    std::printf("  %-8s %-40s %d  %s\n", name_.c_str(), "arrays the gradient changed", changedArrays_,
                changedArrays_ == 0 ? "ok" : "FAILED");
    failures += changedArrays_ != 0;
    failures += gradientVsFiniteDifferences(f);
    return failures;
  }

 private:
  std::string name_;
  VerifyOptions o_;
  double fdFloor_ = 1e-4;
  // A difference that misses the tolerance is taken again with a step this much wider, and the
  // closer of the two counts: rounding error, which shrinks with the step, is then no failure (a
  // wrong derivative misses at every step). Seen: a derivative of 1e-7 whose difference at 1e-5
  // carried 1.5e-10 of rounding.
  static constexpr double kWider = 4;
  double dotTerms_ = 0;    // sum of |v_i (J^T w)_i|
  int changedArrays_ = 0;  // the user's arrays that the gradient left different from how it got them
  std::mt19937_64 rng_;
  std::tuple<SlotFor<A, ((Wrt >> I) & 1) != 0>...> slots_;
  double returnWeight_ = 1;

  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }

  template <class F>
  void each(F&& fn) {
    std::apply([&](auto&... s) { (fn(s), ...); }, slots_);
  }

  void init() {
    size_t intIndex = 0, position = 0;
    each([&](auto& s) {
      bool own = position < o_.ranges.size() && o_.ranges[position].first <= o_.ranges[position].second;
      double lo = own ? o_.ranges[position].first : o_.lo, hi = own ? o_.ranges[position].second : o_.hi;
      ++position;
      using S = std::decay_t<decltype(s)>;
      using E = typename S::E;
      size_t count = 1;
      if constexpr (S::isStruct)
        count = S::count();
      else if constexpr (S::pointer)
        count = S::fixedLength ? S::fixedLength : o_.length * S::rowLength;
      s.initial.assign(count, E{});
      if constexpr (std::is_floating_point_v<E>) {
        for (auto& x : s.initial) x = static_cast<E>(uniform(lo, hi));
        if constexpr (S::floating) {
          s.direction.resize(count);
          s.weight.resize(count);
          for (auto& x : s.direction) x = static_cast<E>(uniform(-1, 1));
          for (auto& x : s.weight) x = static_cast<E>(uniform(-1, 1));
        }
      } else if constexpr (std::is_same_v<E, bool>) {
        s.initial.assign(count, true);
      } else {
        long v = intIndex < o_.ints.size() ? o_.ints[intIndex] : o_.n;
        ++intIndex;
        for (auto& x : s.initial) x = static_cast<E>(v);
      }
      s.reset();
    });
  }

  // F(x): the return value, then every output array.
  template <class Forward>
  std::vector<double> outputs(Forward f) {
    each([](auto& s) { s.reset(); });
    std::vector<double> out;
    if constexpr (std::is_floating_point_v<R>)
      out.push_back(std::apply([&](auto&... s) { return f(s.arg()...); }, slots_));
    else
      std::apply([&](auto&... s) { f(s.arg()...); }, slots_);
    each([](auto& s) { s.sync(); });
    each([&](auto& s) {
      using S = std::decay_t<decltype(s)>;
      if constexpr (S::output) out.insert(out.end(), s.value.begin(), s.value.end());
    });
    return out;
  }

  // <out, (1, w)>, or with `magnitude` the sum of the absolute values of its terms.
  double weighted(const std::vector<double>& out, bool magnitude = false) {
    auto term = [&](double x) { return magnitude ? std::fabs(x) : x; };
    double sum = 0;
    size_t k = 0;
    if constexpr (std::is_floating_point_v<R>) sum += term(returnWeight_ * out[k++]);
    each([&](auto& s) {
      using S = std::decay_t<decltype(s)>;
      if constexpr (S::output)
        for (auto w : s.weight) sum += term(w * out[k++]);
    });
    return sum;
  }

  // Moves every floating input by t * direction.
  void shift(double t) {
    each([&](auto& s) {
      using S = std::decay_t<decltype(s)>;
      if constexpr (S::floating)
        for (size_t i = 0; i < s.initial.size(); ++i) s.initial[i] += static_cast<typename S::E>(t * s.direction[i]);
    });
  }

  // Whether two finite differences with different steps agree: where they do not, a branch or a
  // kink lies within the step, and finite differences say nothing about the derivative.
  bool smooth(const std::vector<double>& coarse, const std::vector<double>& fine) const {
    return worstError(coarse, fine) <= o_.fdTolerance;
  }

  // Central differences along the direction, Richardson-extrapolated: (4 D(h/2) - D(h)) / 3
  // cancels the h^2 error term, so the reference is good to about h^4.
  template <class Forward>
  std::vector<double> finiteDirectional(Forward f, double h) {
    std::vector<double> coarse = centralDirectional(f, h), fine = centralDirectional(f, h / 2);
    for (size_t i = 0; i < coarse.size(); ++i) coarse[i] = (4 * fine[i] - coarse[i]) / 3;
    return coarse;
  }

  template <class Forward>
  std::vector<double> centralDirectional(Forward f, double h) {
    auto saved = slots_;
    shift(h);
    std::vector<double> plus = outputs(f);
    slots_ = saved;
    shift(-h);
    std::vector<double> minus = outputs(f);
    slots_ = saved;
    std::vector<double> d(plus.size());
    for (size_t i = 0; i < d.size(); ++i) d[i] = (plus[i] - minus[i]) / (2 * h);
    return d;
  }

  template <class Jvp>
  std::vector<double> forwardMode(Jvp jvp) {
    each([](auto& s) {
      s.reset();
      using S = std::decay_t<decltype(s)>;
      if constexpr (S::floating) s.dot = s.direction;
    });
    std::vector<double> out;
    if constexpr (std::is_floating_point_v<R>)
      out.push_back(callWithDots(jvp));
    else
      callWithDots(jvp);
    each([](auto& s) { s.sync(); });
    each([&](auto& s) {
      using S = std::decay_t<decltype(s)>;
      if constexpr (S::output) out.insert(out.end(), s.dot.begin(), s.dot.end());
    });
    return out;
  }

  // Calls `fn(args..., extras...)` where extras are produced by `extra(slot)` for floating slots.
  template <class Fn, class Extra>
  auto callWith(Fn fn, Extra extra) {
    auto extras = std::apply(
        [&](auto&... s) {
          return std::tuple_cat([&](auto& slot) {
            using S = std::decay_t<decltype(slot)>;
            if constexpr (S::floating)
              return std::make_tuple(extra(slot));
            else
              return std::tuple<>();
          }(s)...);
        },
        slots_);
    auto args = std::apply([](auto&... s) { return std::make_tuple(s.arg()...); }, slots_);
    return std::apply(fn, std::tuple_cat(args, extras));
  }

  template <class Jvp>
  auto callWithDots(Jvp jvp) {
    return callWith(jvp, [](auto& s) { return s.dotArg(); });
  }

  // <v, J^T w>: reverse mode seeded with w (the return value's weight is 1).
  template <class Grad>
  double reverseMode(Grad grad) {
    each([](auto& s) {
      s.reset();
      using S = std::decay_t<decltype(s)>;
      if constexpr (S::floating) {
        s.bar.assign(s.initial.size(), 0);
        if constexpr (S::output) s.bar = s.weight;
      }
    });
    callWith(grad, [](auto& s) { return s.barArg(); });
    each([&](auto& s) {
      using S = std::decay_t<decltype(s)>;
      s.sync();
      if constexpr (S::pointer) changedArrays_ += s.value != s.initial;
    });
    double sum = 0;
    each([&](auto& s) {
      using S = std::decay_t<decltype(s)>;
      if constexpr (S::floating)
        for (size_t i = 0; i < s.bar.size(); ++i) {
          sum += s.direction[i] * s.bar[i];
          dotTerms_ += std::fabs(s.direction[i] * s.bar[i]);
        }
    });
    return sum;
  }

  // Central difference of <F(x), w> in component i of slot s, Richardson-extrapolated.
  template <class Forward, class S>
  double centralDifference(Forward f, S& s, size_t i, double h) {
    auto difference = [&](double step) {
      auto saved = s.initial[i];
      s.initial[i] = saved + step;
      double plus = weighted(outputs(f));
      s.initial[i] = saved - step;
      double minus = weighted(outputs(f));
      s.initial[i] = saved;
      return (plus - minus) / (2 * step);
    };
    return (4 * difference(h / 2) - difference(h)) / 3;
  }

  template <class Forward>
  int gradientVsFiniteDifferences(Forward f) {
    double worst = 0;
    int notSmooth = 0;
    std::string where;
    size_t slotIndex = 0;
    std::string table;
    each([&](auto& s) {
      using S = std::decay_t<decltype(s)>;
      if constexpr (S::floating) {
        double maxAbs = 0, maxRel = 0;
        for (size_t i = 0; i < s.initial.size(); ++i) {
          double h = o_.step * std::max(1.0, std::fabs(static_cast<double>(s.initial[i])));
          double fd = centralDifference(f, s, i, h);
          double err = relativeError(fd, s.bar[i], fdFloor_);
          if (err > o_.fdTolerance) {  // (see wider below)
            double wide = centralDifference(f, s, i, kWider * h);
            if (relativeError(wide, s.bar[i], fdFloor_) < err) fd = wide, err = relativeError(wide, s.bar[i], fdFloor_);
          }
          if (err > o_.fdTolerance && relativeError(fd, centralDifference(f, s, i, h / 8), fdFloor_) > o_.fdTolerance) {
            ++notSmooth;
            continue;
          }
          maxRel = std::max(maxRel, err);
          maxAbs = std::max(maxAbs, std::isfinite(err) ? static_cast<double>(std::fabs(fd - s.bar[i])) : HUGE_VAL);
          if (err > worst) {
            worst = err;
            where = paramName(slotIndex) + "[" + std::to_string(i) + "]: fd " + std::to_string(fd) + " vs adjoint " +
                    std::to_string(s.bar[i]);
          }
        }
        char row[160];
        std::snprintf(row, sizeof row, "    %-16s %-14.2e %-14.2e %s\n", paramName(slotIndex).c_str(), maxAbs, maxRel,
                      maxRel <= o_.fdTolerance ? "ok" : "FAILED");
        table += row;
      }
      ++slotIndex;
    });
    int bad = report("gradient vs finite differences", worst, o_.fdTolerance);
    if (o_.table)
      std::printf("    %-16s %-14s %-14s\n%s", "parameter", "max abs error", "max rel error", table.c_str());
    if (bad) std::printf("    worst at %s\n", where.c_str());
    if (notSmooth) std::printf("    %d component(s) skipped: the function is not smooth there\n", notSmooth);
    return bad;
  }

  std::string paramName(size_t i) const { return i < o_.names.size() ? o_.names[i] : "parameter " + std::to_string(i); }

  double worstError(const std::vector<double>& a, const std::vector<double>& b) const {
    double worst = 0;
    for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, relativeError(a[i], b[i], fdFloor_));
    return worst;
  }

  int report(const char* what, double err, double tol) {
    bool ok = err <= tol;
    std::printf("  %-8s %-40s max rel. error %.2e (tolerance %.0e)  %s\n", name_.c_str(), what, err, tol,
                ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
  }
};

}  // namespace detail

// The seeds, from options.seed on (which always comes first), at whose inputs `probe` takes a side
// of some branch that the seeds before did not: `probe(k, ...)` marks sides[k][taken] for branch k
// (a branch probe written by `adjoint check`, with f's signature). Stops once both sides of all
// `count` branches are seen, or after `draws` seeds.
template <unsigned long long Wrt = ~0ull, class R, class... A>
std::vector<unsigned> seedsCoveringBranches(R (*probe)(A...), VerifyOptions options, bool (*sides)[2], size_t count,
                                            unsigned draws = 64) {
  std::vector<unsigned> seeds;
  unsigned first = options.seed;
  auto seen = [&] {
    size_t n = 0;
    for (size_t k = 0; k < count; ++k) n += sides[k][0] + sides[k][1];
    return n;
  };
  for (unsigned d = 0; d < draws && (d == 0 || seen() < 2 * count); ++d) {
    options.seed = first + d;
    size_t before = seen();
    detail::Verifier<R, Wrt, std::index_sequence_for<A...>, A...>("probe", options).evaluate(probe);
    if (d == 0 || seen() > before) seeds.push_back(options.seed);
  }
  return seeds;
}

// Returns the number of failed checks (0 when the derivatives agree with finite differences and
// with each other). Bit i of Wrt says whether parameter i was differentiated (`--wrt`); by
// default every floating parameter was.
template <unsigned long long Wrt = ~0ull, class R, class... A, class Grad, class Jvp>
int verify(const std::string& name, R (*f)(A...), Grad grad, Jvp jvp, const VerifyOptions& options = {}) {
  return detail::Verifier<R, Wrt, std::index_sequence_for<A...>, A...>(name, options).run(f, grad, jvp);
}

}  // namespace adjoint
