#include "ad/derive/HostLevel.h"

#include <algorithm>
#include <map>

#include "ad/analysis/Activity.h"
#include "ad/analysis/Loops.h"
#include "ad/analysis/OutputReads.h"
#include "ad/derive/AdjointStarts.h"
#include "ad/derive/HostProgram.h"
#include "ad/derive/HostSteps.h"
#include "ad/derive/HostVersions.h"
#include "ad/derive/Optimizers.h"
#include "ad/derive/SharedBuffers.h"
#include "ad/ir/Diagnostic.h"
#include "ad/ir/Names.h"
#include "ad/ir/Naming.h"

namespace adjoint::derive {

using namespace ir;

namespace {

const Type kCount = Type::integer("long long");
const Type kStatus = Type::opaque("adjoint::FirstError");
const Type kScratch = Type::opaque("adjoint::Scratch");
const Type kError = Type::opaque("cudaError_t");

class HostBuilder {
 public:
  HostBuilder(const Module& m, const Function& f, const Request& r, Requests& q, Mode mode)
      : m_(m), f_(f), r_(r), q_(q), mode_(mode), names_(f) {}

  HostBufferSizes sizes() {
    collect();
    HostBufferSizes out{locals_, {}};
    for (const Param& p : f_.params) {
      bool touched = std::any_of(steps_.begin(), steps_.end(), [&](const Step& s) {
        return std::any_of(s.buffers.begin(), s.buffers.end(), [&](const BufferArg& b) { return b.buffer == p.name; });
      });
      if (touched) out.elements.emplace_back(p.name, extent(p.name));
    }
    return out;
  }

  Function build() {
    collect();
    Function g;
    g.name = train() ? naming::trainStepOf(f_.name) : derivativeName(f_, r_.wrt, mode_, true);
    g.returnType = kError;
    g.params = f_.params;
    g.primal = f_.name;
    g.loc = f_.loc;
    g.internal = !r_.entry;
    g.hostLevel = true;
    g.trainStep = train();
    if (train()) {
      checkTraining();
      for (Param& p : g.params)
        if (isTrained(p.name)) p.type.constPointee = false;
      std::vector<Param> extra = optimizerParams(*r_.train, f_.param(r_.train->params[0])->type.element());
      g.params.insert(g.params.end(), extra.begin(), extra.end());
    } else {
      for (const Param& p : f_.params)
        if (p.type.pointer && p.type.isFloating())  // directions of buffers f only reads are const
          g.params.push_back(Param{derivativeOf(p.name), derivativeType(p.name),
                                   mode_ == Mode::Reverse ? Role::Adjoint : Role::Tangent, p.name});
    }
    for (const Param& p : g.params) names_.insert(p.name);
    findActive();
    if (train()) findPullbacksFromOutput();
    plan_ = planVersions(steps_, loops_, f_, mode_ == Mode::Reverse, train(), names_);
    if (train())
      starts_ = planAdjointStarts(steps_, pullbackBuffers(), r_.train->loss, r_.train->params, r_.train->deterministic);
    planUpdatesInPullbacks();
    if (mode_ == Mode::Reverse) privates_ = planPrivateAdjoints(steps_, pullbackBuffers(), names_);
    g.body = locals_;
    StmtList scratch = allocateScratch();
    g.body.insert(g.body.end(), scratch.begin(), scratch.end());
    StmtList sweeps = mode_ == Mode::Reverse ? reverseSweeps() : tangentSweep();
    g.body.insert(g.body.end(), sweeps.begin(), sweeps.end());
    g.body.push_back(ret(status()));
    return g;
  }

 private:
  const Module& m_;
  const Function& f_;
  const Request& r_;
  Requests& q_;
  Mode mode_;
  NameSet names_;
  HostProgram program_;  // f read as steps
  const StmtList& locals_ = program_.locals;
  std::vector<Step>& steps_ = program_.steps;
  std::vector<HostLoop>& loops_ = program_.loops;
  const ExprPtr& stream_ = program_.stream;
  VersionPlan plan_;
  AdjointStarts starts_;  // a training step's adjoints that GEMM pullbacks write first
  // SGD: trained parameters that the GEMM pullback computing their gradient updates itself (the
  // gradient never goes to memory), by the step of that GEMM.
  std::map<std::string, size_t> updatedInPullback_;
  std::string status_, scratch_;
  std::map<std::string, std::string> counts_;  // buffer -> the local holding its extent
  std::vector<PrivateAdjoint> privates_;       // adjoints of launches' arguments kept apart (SharedBuffers.h)
  // The buffers with adjoints: every floating one in f_vjp; in a training step, those that depend
  // on the trained parameters and that the loss depends on, and what their steps' pullbacks need.
  std::set<std::string> active_, withAdjoint_;

  bool train() const { return r_.train.has_value(); }
  bool isTrained(const std::string& buffer) const {
    return train() && std::count(r_.train->params.begin(), r_.train->params.end(), buffer) > 0;
  }
  // The launches whose kernel updates a buffer in place through one store whose derivative its
  // result gives (h[i] = fmax(h[i] + b[j], 0): analysis/OutputReads.h): their pullbacks may read
  // that buffer as the kernel leaves it, where nothing else needs what it held before
  // (planVersions decides). Not a trained parameter: the update may change it before the pullback.
  void findPullbacksFromOutput() {
    for (Step& s : steps_) {
      if (s.kind != StepKind::Launch || !differentiated(s)) continue;
      std::vector<std::string> candidates;
      for (const BufferArg& b : s.buffers) {
        bool once = std::count_if(s.buffers.begin(), s.buffers.end(),
                                  [&](const BufferArg& other) { return other.buffer == b.buffer; }) == 1;
        if (b.reads && b.writes && b.floating && once && !isTrained(b.buffer) &&
            analysis::storeReadableAfter(*s.kernel, s.kernel->params[b.position].name, m_))
          candidates.push_back(b.buffer);
      }
      if (candidates.size() == 1) s.readsAsLeft = candidates[0];
    }
  }

  // Whether step s's pullback runs: it writes a buffer with an adjoint.
  bool differentiated(const Step& s) const {
    return std::any_of(s.buffers.begin(), s.buffers.end(),
                       [&](const BufferArg& b) { return b.writes && active_.count(b.buffer); });
  }

  bool writes(const std::string& buffer) const {
    return std::any_of(steps_.begin(), steps_.end(), [&](const Step& s) { return s.writes(buffer); });
  }
  // b_bar or b_dot, as the mode derives.
  std::string derivativeOf(const std::string& b) const {
    return mode_ == Mode::Reverse ? naming::adjointOf(b) : naming::tangentOf(b);
  }
  Type derivativeType(const std::string& buffer) const {
    return f_.param(buffer)->type.element().pointerTo(mode_ == Mode::Forward && !writes(buffer));
  }
  ExprPtr status() const { return var(status_, kStatus); }

  void collect() { program_ = readHostProgram(f_, m_, names_); }

  // ---- versions: the copies the forward runs in ------------------------------------------------

  // The elements of `buffer` that any step touches. A read at indices from memory is taken to
  // stay within what the other steps bound (`unbounded` names its line).
  ExprPtr extent(const std::string& buffer, const Step** unbounded = nullptr) const {
    std::vector<ExprPtr> extents;
    const Step* reading = nullptr;
    for (const Step& s : steps_)
      for (const BufferArg& b : s.buffers) {
        if (b.buffer != buffer) continue;
        analysis::AccessExtent a = stepExtent(s, f_, b);
        a.extent = overLoop(s, a.extent);
        if (a.unboundedReads && !reading) reading = &s;
        if (a.extent &&
            std::none_of(extents.begin(), extents.end(), [&](const ExprPtr& x) { return sameExpr(*x, *a.extent); }))
          extents.push_back(a.extent);
      }
    if (extents.empty())
      throw Diagnostic(
          reading->stmt->loc,
          "cannot tell how many elements of '" + buffer + "' the kernel '" + reading->kernel->name + "' reads",
          "its indices into the buffer are read from memory; Adjoint copies the buffers the forward "
          "writes and needs their sizes from indices it can bound");
    if (unbounded) *unbounded = reading;
    ExprPtr out = extents.front();
    for (size_t i = 1; i < extents.size(); ++i) out = call("std::max<long long>", {out, extents[i]}, kCount);
    return out;
  }

  // The value of e, an expression of step s's arguments, over f's own locals: the locals of s's
  // loop replaced by their values and, where the counter remains, the larger of e at the first
  // and at the last iteration (offsets and sizes of layers grow or shrink with the layer).
  ExprPtr overLoop(const Step& s, ExprPtr e) const {
    if (s.loop < 0 || !e) return e;
    const HostLoop& loop = loops_[s.loop];
    for (auto it = loop.locals.rbegin(); it != loop.locals.rend(); ++it)
      e = substitute(e, [&](const Expr& v) { return v.text == (*it)->name ? (*it)->expr : nullptr; });
    const std::string& counter = loop.header.counter;
    if (!reads(e, counter)) return e;
    auto at = [&](const ExprPtr& value) {
      return refold(substitute(e, [&](const Expr& v) { return v.text == counter ? value : nullptr; }));
    };
    return call("std::max<long long>", {at(loop.header.first), at(analysis::lastValue(loop.header))}, kCount);
  }

  // The elements of b's buffer that step s touches from where b points.
  ExprPtr touched(const Step& s, const BufferArg& b) const {
    BufferArg fromStart = b;
    fromStart.offset = nullptr;
    ExprPtr e = stepExtent(s, f_, fromStart).extent;
    if (!e)
      throw Diagnostic(s.stmt->loc, "cannot tell how many elements of '" + b.buffer + "' this step writes",
                       "a step of a loop saves what it overwrites for the reverse sweep; guard the kernel's "
                       "indices with the sizes it is passed");
    return e;
  }

  // ---- scratch: versions and, in a training step, adjoints ------------------------------------

  void checkTraining() const {
    const TrainStep& t = *r_.train;
    for (const std::string& p : t.params) {
      const Param* param = f_.param(p);
      if (!param || !param->type.pointer || !param->type.isFloating())
        throw Diagnostic(f_.loc, "'" + p + "' is not a float or double buffer of '" + f_.name + "'",
                         "--params names the buffers the step trains");
      if (writes(p))
        throw Diagnostic(f_.loc, "'" + f_.name + "' writes the trained parameter '" + p + "'",
                         "a training step updates its parameters itself; the forward only reads them");
      if (param->type.scalar != f_.param(t.params.front())->type.scalar)
        throw Diagnostic(f_.loc, "the trained parameters '" + t.params.front() + "' and '" + p + "' differ in type",
                         "the optimizer's learning rate and state have one type: train buffers of one type");
    }
    const Param* loss = f_.param(t.loss);
    if (!loss || !loss->type.pointer || !loss->type.isFloating() || !writes(t.loss))
      throw Diagnostic(f_.loc, "'" + f_.name + "' writes no loss buffer named '" + t.loss + "'",
                       "name the one-element buffer the function writes its loss into with --loss");
  }

  // f_vjp: every floating buffer has an adjoint. A training step: what depends on the trained
  // parameters and what the loss depends on.
  void findActive() {
    std::set<std::string> floating;
    for (const Param& p : f_.params)
      if (p.type.pointer && p.type.isFloating()) floating.insert(p.name);
    if (!train()) {
      active_ = withAdjoint_ = floating;
      return;
    }
    std::set<std::string> varied(r_.train->params.begin(), r_.train->params.end()), useful{r_.train->loss};
    for (const Step& s : steps_)
      if (std::any_of(s.buffers.begin(), s.buffers.end(),
                      [&](const BufferArg& b) { return b.reads && varied.count(b.buffer); }))
        for (const BufferArg& b : s.buffers)
          if (b.writes) varied.insert(b.buffer);
    for (size_t k = steps_.size(); k-- > 0;)
      if (std::any_of(steps_[k].buffers.begin(), steps_[k].buffers.end(),
                      [&](const BufferArg& b) { return b.writes && useful.count(b.buffer); }))
        for (const BufferArg& b : steps_[k].buffers)
          if (b.reads) useful.insert(b.buffer);
    for (const std::string& b : floating)
      if (varied.count(b) && useful.count(b)) active_.insert(b);
    for (const std::string& p : r_.train->params)
      if (!active_.count(p))
        throw Diagnostic(f_.loc,
                         "the loss '" + r_.train->loss + "' does not depend on the trained parameter '" + p + "'",
                         "train the parameters that the steps of '" + f_.name + "' lead from to the loss");
    withAdjoint_ = active_;
    for (const Step& s : steps_)
      if (differentiated(s))
        for (const BufferArg* b : derivativeBuffers(s))
          if (b) withAdjoint_.insert(b->buffer);
  }

  StmtList allocateScratch() {
    status_ = names_.fresh("status");
    StmtList out;
    out.push_back(withComment(decl(status_, kStatus, nullptr),
                              "the first error of the steps and copies below (the later ones still run)"));
    if (plan_.versions.empty() && plan_.saves.empty() && privates_.empty() && !train()) return out;
    scratch_ = names_.fresh("scratch");
    out.push_back(withComment(
        decl(scratch_, kScratch, call("adjoint::Scratch", {stream_}, kScratch)),
        train() ? "The forward keeps the values the reverse needs in copies, the adjoints are scratch too:\n"
                  "memory of the stream, reused from call to call."
                : "The forward runs in copies of the buffers it writes, leaving yours as they came in; scratch\n"
                  "memory of the stream, reused from call to call."));
    for (const Version& v : plan_.versions) {
      declareCount(v.buffer, out);
      out.push_back(take(v.name, v.buffer));
    }
    StmtList tapes = allocateTapes();
    out.insert(out.end(), tapes.begin(), tapes.end());
    for (const PrivateAdjoint& a : privates_) {
      const Step& s = steps_[a.step];
      const BufferArg& b = *derivativeBuffers(s)[a.argument];
      out.push_back(withComment(decl(a.count, kCount, overLoop(s, touched(s, b))),
                                "line " + std::to_string(s.stmt->loc.line) + " shares " + b.buffer +
                                    " between parameters: the adjoint through '" + s.kernel->params[b.position].name +
                                    "' kept apart" + (a.overlaps.empty() ? "" : " where they overlap")));
      out.push_back(decl(a.name, derivativeType(b.buffer),
                         call(scratch_ + ".take<" + derivativeType(b.buffer).scalarSpelling() + ">",
                              {var(a.count, kCount)}, derivativeType(b.buffer))));
    }
    if (train())
      for (const std::string& b : withAdjoint_) {
        declareCount(b, out);
        if (!updatedInPullback_.count(b)) out.push_back(take(naming::adjointOf(b), b));
      }
    out.push_back(ifStmt(unary(Op::Not, var(scratch_, kScratch)), {ret(call(scratch_ + ".status", {}, kError))}));
    for (const PrivateAdjoint& a : privates_) {  // zero once: each pullback leaves it zero (copy_vjp)
      const Step& s = steps_[a.step];
      ExprPtr p = var(a.name, derivativeType(derivativeBuffers(s)[a.argument]->buffer));
      ExprPtr bytes = mul(var(a.count, kCount), call("sizeof", {unary(Op::Deref, p)}, kCount));
      out.push_back(assign(status(), Op::Assign,
                           call("cudaMemsetAsync", {p, number(0, Type::integer()), bytes, stream_}, kError)));
    }
    if (train()) {
      StmtList seeds = seedAdjoints();
      out.insert(out.end(), seeds.begin(), seeds.end());
    }
    return out;
  }

  // Per save, its elements per iteration times the loop's iterations.
  StmtList allocateTapes() {
    StmtList out;
    for (HostLoop& loop : loops_) {
      if (std::none_of(plan_.saves.begin(), plan_.saves.end(),
                       [&](const Save& v) { return &loops_[steps_[v.step].loop] == &loop; }))
        continue;
      const analysis::CountedLoop& h = loop.header;
      ExprPtr n = h.increasing ? sub(h.bound, h.first) : sub(h.first, h.bound);
      if (h.inclusive) n = add(n, number(1, n->type));
      loop.trips = names_.fresh(h.counter + "_iterations");
      out.push_back(withComment(decl(loop.trips, kCount, call("std::max<long long>", {number(0, kCount), n}, kCount)),
                                "iterations of the loop at line " + std::to_string(loop.stmt->loc.line)));
    }
    for (const Save& v : plan_.saves) {
      const Step& s = steps_[v.step];
      Type t = f_.param(v.arg->buffer)->type.element().pointerTo(false);
      ExprPtr size = mul(var(loops_[s.loop].trips, kCount), var(v.slot, kCount));
      out.push_back(withComment(decl(v.slot, kCount, overLoop(s, touched(s, *v.arg))),
                                "what line " + std::to_string(s.stmt->loc.line) + " overwrites in " + v.arg->buffer +
                                    " and the loop's pullbacks read: saved per iteration"));
      out.push_back(decl(v.tape, t, call(scratch_ + ".take<" + t.scalarSpelling() + ">", {size}, t)));
    }
    return out;
  }

  // Step j's saves (before it runs, forward) or their restores (before its pullback).
  StmtList savesOf(size_t j, bool forward) const {
    StmtList out;
    for (const Save& v : plan_.saves) {
      if (v.step != j) continue;
      const Step& s = steps_[j];
      const analysis::CountedLoop& h = loops_[s.loop].header;
      ExprPtr counter = var(h.counter, h.counterType);
      ExprPtr iteration = cast(kCount, h.increasing ? sub(counter, h.first) : sub(h.first, counter));
      Type t = f_.param(v.arg->buffer)->type.element().pointerTo(false);
      ExprPtr saved = add(var(v.tape, t), mul(iteration, var(v.slot, kCount)));
      ExprPtr working = var(s.before.at(v.arg->buffer), t);
      if (v.arg->offset) working = add(working, v.arg->offset);
      ExprPtr n = touched(s, *v.arg);
      std::string line = "line " + std::to_string(s.stmt->loc.line);
      out.push_back(withComment(
          assign(status(), Op::Assign,
                 call("adjoint::copy", {forward ? saved : working, forward ? working : saved, cast(kCount, n), stream_},
                      kError)),
          forward ? line + " overwrites " + v.arg->buffer + ": saved for the reverse sweep"
                  : v.arg->buffer + " as it was before " + line));
    }
    return out;
  }

  void declareCount(const std::string& buffer, StmtList& out) {
    if (counts_.count(buffer)) return;
    counts_[buffer] = names_.fresh(buffer + "_count");
    out.push_back(
        withComment(decl(counts_[buffer], kCount, extent(buffer)), "elements of " + buffer + " the forward touches"));
  }
  StmtPtr take(const std::string& name, const std::string& buffer) {
    Type t = f_.param(buffer)->type.element().pointerTo(false);
    return decl(name, t, call(scratch_ + ".take<" + t.scalarSpelling() + ">", {count(buffer)}, t));
  }
  // adjoint::Fill(name, the count of buffer, value): one buffer of a fill_all.
  ExprPtr fill(const std::string& name, const std::string& buffer, double value) const {
    Type t = f_.param(buffer)->type;
    return call("adjoint::Fill", {var(name, t.element().pointerTo(false)), count(buffer), number(value, t.element())},
                Type::opaque("adjoint::Fill"));
  }

  // The adjoints start at zero (but those a GEMM's pullback writes first), the loss's at one; a
  // loss that f adds into starts at zero. One launch per element type fills them all.
  StmtList seedAdjoints() const {
    const std::string& loss = r_.train->loss;
    std::map<Scalar, std::vector<ExprPtr>> fills;  // per element type: the stream, then its buffers
    auto add = [&](const std::string& name, const std::string& buffer, double value) {
      std::vector<ExprPtr>& args = fills[f_.param(buffer)->type.scalar];
      if (args.empty()) args.push_back(stream_);
      args.push_back(fill(name, buffer, value));
    };
    for (const std::string& b : withAdjoint_)
      if (b != loss && !starts_.starts(b)) add(naming::adjointOf(b), b, 0);
    add(naming::adjointOf(loss), loss, 1);
    std::string comment = "the adjoints start at zero; the loss's at one (d loss / d loss)";
    for (const Step& s : steps_) {
      auto arg = std::find_if(s.buffers.begin(), s.buffers.end(), [&](const BufferArg& b) { return b.buffer == loss; });
      if (arg == s.buffers.end()) continue;
      if (arg->reads || arg->updates) {
        add(loss, loss, 0);
        comment += "; " + f_.name + " adds into " + loss + ": it starts at zero";
      }
      break;
    }
    StmtList out;
    for (const auto& [type, args] : fills)
      out.push_back(assign(status(), Op::Assign, call("adjoint::fill_all", args, kError)));
    out.front()->comment = comment;
    return out;
  }

  ExprPtr count(const std::string& buffer) const { return var(counts_.at(buffer), kCount); }

  // The copies made before step k: each new version starts as what the buffer holds then.
  StmtList copiesBefore(size_t k) const {
    StmtList out;
    for (const Version& v : plan_.versions) {
      if (v.createdBefore != k) continue;
      const Type& t = f_.param(v.buffer)->type;
      ExprPtr copy = call("adjoint::copy", {var(v.name, t), var(v.copiedFrom, t), count(v.buffer), stream_}, kError);
      out.push_back(withComment(assign(status(), Op::Assign, copy),
                                plan_.inPlace.count(v.buffer) ? "what the reverse sweep reads of " + v.buffer +
                                                                    ", copied out before this step overwrites it"
                                                              : ""));
    }
    if (!out.empty() && out.front()->comment.empty())
      out.front()->comment = "copies to write into, starting as what the buffers hold here";
    return out;
  }

  // ---- the sweeps ------------------------------------------------------------------------------

  // The step's arguments with each buffer replaced by its version in `versions`.
  std::vector<ExprPtr> arguments(const Step& s, const std::map<std::string, std::string>& versions) const {
    std::vector<ExprPtr> args = s.stmt->expr->operands;
    for (const BufferArg& b : s.buffers) {
      auto it = versions.find(b.buffer);
      std::string name = it == versions.end() ? b.buffer : it->second;
      Type t = f_.param(b.buffer)->type;
      if (name != b.buffer) t.constPointee = false;
      args[b.position] = b.offset ? binary(Op::Add, var(name, t), b.offset) : var(name, t);
    }
    return args;
  }
  std::map<std::string, std::string> during(const Step& s) const {
    std::map<std::string, std::string> versions = s.before;
    for (const auto& [buffer, version] : s.after) versions[buffer] = version;
    return versions;
  }

  // The kernel parameters of the step's derivative (those bound to buffers with adjoints).
  std::set<std::string> kernelWrt(const Step& s) const {
    std::set<std::string> wrt;
    for (const BufferArg& b : s.buffers)
      if (b.floating && active_.count(b.buffer)) wrt.insert(s.kernel->params[b.position].name);
    return wrt;
  }

  // The buffers whose derivatives the step's derivative takes, in its order: a kernel's
  // differentiated parameters; a GEMM's A, B, C (null: no adjoint needed).
  std::vector<const BufferArg*> derivativeBuffers(const Step& s) const {
    std::vector<const BufferArg*> out;
    if (s.kind != StepKind::Launch) {
      for (const BufferArg& b : s.buffers) out.push_back(active_.count(b.buffer) ? &b : nullptr);
      return out;
    }
    for (const Param* p : differentiatedParams(*s.kernel, kernelWrt(s)))
      for (const BufferArg& b : s.buffers)
        if (s.kernel->params[b.position].name == p->name) out.push_back(&b);
    return out;
  }

  // Per step, the buffers whose derivatives its pullback takes; none for a step without one.
  std::vector<std::vector<const BufferArg*>> pullbackBuffers() const {
    std::vector<std::vector<const BufferArg*>> out;
    for (const Step& s : steps_)
      out.push_back(differentiated(s) ? derivativeBuffers(s) : std::vector<const BufferArg*>{});
    return out;
  }

  std::vector<ExprPtr> derivativeArguments(const Step& s) const {
    std::vector<ExprPtr> out;
    for (const BufferArg* b : derivativeBuffers(s)) {
      if (!b) {
        out.push_back(var("nullptr", Type::of(Scalar::Void).pointerTo(false)));
        continue;
      }
      // A parameter its pullback updates takes its gradient's place (gemm_vjp's SgdOn).
      ExprPtr d = updatedInPullback_.count(b->buffer) ? var(b->buffer, f_.param(b->buffer)->type)
                                                      : var(derivativeOf(b->buffer), derivativeType(b->buffer));
      out.push_back(b->offset ? binary(Op::Add, d, b->offset) : d);
    }
    return out;
  }

  // Step k's pullback, between the checks and the additions its private adjoints need.
  StmtList withPrivates(size_t k, StmtPtr pullback) const {
    const Step& s = steps_[k];
    Touched extent = [&](const BufferArg& b) { return touched(s, b); };
    StmtList out = checkOverlaps(k, privates_, s, derivativeBuffers(s), extent);
    out.push_back(pullback);
    StmtList added =
        addPrivateAdjoints(k, privates_, s, derivativeBuffers(s), derivativeArguments(s), extent, stream_, status());
    out.insert(out.end(), added.begin(), added.end());
    return out;
  }
  std::vector<ExprPtr> pullbackArguments(size_t k) const {
    return withPrivateAdjoints(k, privates_, derivativeArguments(steps_[k]));
  }

  // The name of the derivative of the step's kernel (with the kernel's own stores: K_value_and_vjp).
  std::string kernelDerivative(const Step& s, naming::Variant variant = naming::Variant::Plain) const {
    return s.kernel ? q_.need(*s.kernel, kernelWrt(s), mode_, variant) : "";
  }

  // The step of a training step whose kernel runs with its pullback as one launch: the loss
  // kernel, the last step, outside loops, reading nothing it writes. Its pullback is the first,
  // right after it, and reads its inputs as the launch finds them: one pass computes the loss and
  // the adjoints of its inputs (softmax probabilities, say, never go to memory).
  std::optional<size_t> lossWithPullback() const {
    if (!train() || steps_.empty()) return std::nullopt;
    const Step& s = steps_.back();
    if (s.kind != StepKind::Launch || s.loop >= 0 || s.condition || !differentiated(s) || !s.writes(r_.train->loss))
      return std::nullopt;
    for (const BufferArg& b : s.buffers)
      if (b.writes && b.reads) return std::nullopt;
    return steps_.size() - 1;
  }

  StmtPtr located(StmtPtr stmt, const Stmt& source) const {
    stmt->loc = source.loc;
    std::string line = m_.sourceLine(source.loc.line);
    if (!line.empty() && stmt->comment.empty()) stmt->comment = "line " + std::to_string(source.loc.line) + ": " + line;
    return stmt;
  }
  StmtPtr located(StmtPtr stmt, const Step& s) const { return located(std::move(stmt), *s.stmt); }

  // The statements of the steps in order: each step's from `of(k)`, the steps of a loop in the
  // loop, after the copies made before them.
  template <class Of>
  StmtList inOrder(Of of) const {
    StmtList out;
    for (size_t k = 0; k < steps_.size();) {
      StmtList copies = copiesBefore(k);
      out.insert(out.end(), copies.begin(), copies.end());
      if (steps_[k].loop < 0) {
        StmtList own = guarded(k, of(k));
        out.insert(out.end(), own.begin(), own.end());
        ++k;
        continue;
      }
      const HostLoop& loop = loops_[steps_[k].loop];
      StmtList body;
      for (size_t j = loop.begin; j < loop.end; ++j) {
        StmtList own = guarded(j, of(j));
        body.insert(body.end(), own.begin(), own.end());
      }
      const Stmt& h = *loop.stmt;
      out.push_back(located(forStmt(clone({h.init}).front(), h.expr, clone({h.step}).front(), inLoop(loop, body)), h));
      k = loop.end;
    }
    return out;
  }

  // Step k's statements (or its pullback's) under the step's condition: the same in both sweeps.
  StmtList guarded(size_t k, StmtList own) const {
    const ExprPtr& condition = steps_[k].condition;
    if (!condition || own.empty()) return own;
    StmtPtr s = ifStmt(condition, own);
    std::swap(s->comment, own.front()->comment);
    s->loc = own.front()->loc;
    return {s};
  }

  // A loop's body: the locals it declares that `body` uses, then `body`.
  static StmtList inLoop(const HostLoop& loop, StmtList body) {
    std::set<std::string> used = analysis::readVariables(body);
    StmtList locals;
    for (auto it = loop.locals.rbegin(); it != loop.locals.rend(); ++it)
      if (used.count((*it)->name)) {
        locals.insert(locals.begin(), clone({*it}).front());
        used.merge(analysis::readVariables((*it)->expr));
      }
    body.insert(body.begin(), locals.begin(), locals.end());
    return body;
  }

  StmtList reverseSweeps() {
    std::optional<size_t> fused = lossWithPullback();
    StmtList forward = inOrder([&](size_t k) {
      const Step& s = steps_[k];
      StmtList out = savesOf(k, true);
      std::map<std::string, std::string> versions = during(s);
      for (const std::string& b : plan_.inPlace) versions[b] = b;
      std::vector<ExprPtr> args = arguments(s, versions);
      if (k != fused) {
        out.push_back(located(forwardStatement(s, args, status()), s));
        return out;
      }
      std::string note;
      ExprPtr bars = freshBars(k, note);
      StmtPtr both = derivativeStatement(s, f_, true, args, pullbackArguments(k),
                                         kernelDerivative(s, naming::Variant::WithValue), status(), bars);
      both->comment = "line " + std::to_string(s.stmt->loc.line) + ": " + m_.sourceLine(s.stmt->loc.line) +
                      "\nthe loss and its pullback in one kernel: it writes " + r_.train->loss +
                      " and the adjoints of its inputs" + (note.empty() ? "" : "\n" + note);
      StmtList pullback = withPrivates(k, located(both, s));
      out.insert(out.end(), pullback.begin(), pullback.end());
      return out;
    });
    if (train()) {
      StmtList back = copiesBack();
      forward.insert(forward.end(), back.begin(), back.end());
    }
    StmtList reverse;
    for (size_t k = steps_.size(); k-- > 0;) {
      if (steps_[k].loop < 0) {
        StmtList own = guarded(k, pullbackOf(k));
        reverse.insert(reverse.end(), own.begin(), own.end());
        continue;
      }
      const HostLoop& loop = loops_[steps_[k].loop];
      StmtList body;
      for (size_t j = loop.end; j-- > loop.begin;) {
        StmtList own = guarded(j, pullbackOf(j));
        body.insert(body.end(), own.begin(), own.end());
      }
      if (!body.empty())
        reverse.push_back(located(analysis::reversedLoop(loop.header, inLoop(loop, body)), *loop.stmt));
      k = loop.begin;
    }
    if (!forward.empty()) forward.front()->section = Section::Forward;
    if (!reverse.empty()) reverse.front()->section = Section::Reverse;
    forward.insert(forward.end(), reverse.begin(), reverse.end());
    if (train()) {
      StmtList updates = updateParameters();
      forward.insert(forward.end(), updates.begin(), updates.end());
    }
    return forward;
  }

  // Step k's restores, then its pullback where it has one (and did not run with the step).
  StmtList pullbackOf(size_t k) const {
    const Step& s = steps_[k];
    StmtList out = savesOf(k, false);
    if (differentiated(s) && k != lossWithPullback()) {
      std::string note;
      ExprPtr adjoints = s.kind == StepKind::Launch ? freshBars(k, note) : gemmAdjoints(k, note);
      bool asLeft = !s.readsAsLeft.empty();
      StmtPtr pullback = located(
          derivativeStatement(s, f_, true, arguments(s, s.before), pullbackArguments(k),
                              kernelDerivative(s, asLeft ? naming::Variant::FromOutput : naming::Variant::Plain),
                              status(), adjoints),
          s);
      if (asLeft)
        pullback->comment +=
            "\nreads " + s.readsAsLeft + " as " + s.kernel->name + " left it: nothing copied out before";
      if (!note.empty()) pullback->comment += "\n" + note;
      StmtList all = withPrivates(k, pullback);
      out.insert(out.end(), all.begin(), all.end());
    }
    return out;
  }

  // For a launch whose pullback keeps adjoint::Bars::fresh's promise (AdjointStarts): that, and
  // the comment that says why; else null.
  ExprPtr freshBars(size_t k, std::string& note) const {
    if (!starts_.fresh.count(k)) return nullptr;
    std::string zero, unread;
    for (const BufferArg* b : derivativeBuffers(steps_[k])) {
      if (!b) continue;
      std::string& list = b->writes ? unread : zero;
      list += (list.empty() ? "" : ", ") + naming::adjointOf(b->buffer);
    }
    note = "adjoint::Bars::fresh:";
    if (!zero.empty()) note += " " + zero + " still zero" + (unread.empty() ? "" : ";");
    if (!unread.empty()) note += " nothing reads " + unread + " after this";
    return var("adjoint::Bars::fresh", Type::opaque("adjoint::Bars"));
  }

  // For a GEMM pullback that writes adjoints first, or whose C_bar nothing reads after: what
  // gemm_vjp is told (adjoint::GemmAdjoints) and the comment that says so; else null.
  ExprPtr gemmAdjoints(size_t k, std::string& note) const {
    auto first = starts_.startsAt.find(k);
    bool unread = starts_.cBarUnread.count(k) > 0;
    if (first == starts_.startsAt.end() && !unread) return nullptr;
    const Step& s = steps_[k];
    std::vector<ExprPtr> args;
    std::string written, updated = "None";
    for (size_t operand : {0, 1}) {
      const std::string& b = s.buffers[operand].buffer;
      bool starts = first != starts_.startsAt.end() && first->second.count(b);
      bool update = starts && updatedInPullback_.count(b);
      args.push_back(starts && !update ? count(b) : number(0, kCount));
      if (update) {
        updated = operand == 0 ? "A" : "B";
        note = b + " updated here (SGD): the GEMM computing its gradient adds -lr times it into " + b;
      } else if (starts) {
        written += (written.empty() ? "" : " and ") + naming::adjointOf(b);
      }
    }
    args.push_back(var(unread ? "adjoint::CBar::Unread" : "adjoint::CBar::Read", Type::opaque("adjoint::CBar")));
    if (updated != "None") {
      args.push_back(var("adjoint::SgdOn::" + updated, Type::opaque("adjoint::SgdOn")));
      args.push_back(var("lr", f_.param(s.buffers[updated == "A" ? 0 : 1].buffer)->type.element()));
    }
    if (!written.empty())
      note += (note.empty() ? "" : "\n") + written +
              (written.find(" and ") == std::string::npos ? " starts" : " start") +
              " here: written, not added to (never zeroed)";
    if (unread)
      note += (note.empty()      ? ""
               : written.empty() ? "\n"
                                 : "; ") +
              std::string("nothing reads ") + s.buffers[2].buffer + "_bar after this";
    return call("adjoint::GemmAdjoints", args, Type::opaque("adjoint::GemmAdjoints"));
  }

  // A training step leaves the buffers f writes as f would: their last versions copied back.
  StmtList copiesBack() const {
    std::map<std::string, std::string> last;
    for (const Version& v : plan_.versions)
      if (!plan_.inPlace.count(v.buffer)) last[v.buffer] = v.name;
    StmtList out;
    for (const auto& [buffer, version] : last) {
      const Type& t = f_.param(buffer)->type;
      out.push_back(assign(status(), Op::Assign,
                           call("adjoint::copy", {var(buffer, t), var(version, t), count(buffer), stream_}, kError)));
    }
    if (!out.empty()) out.front()->comment = "the buffers " + f_.name + " writes hold what it leaves in them";
    return out;
  }

  // The update of the trained parameters their pullbacks did not update, in one launch.
  StmtList updateParameters() const {
    TrainStep rest = *r_.train;
    rest.params.clear();
    for (const std::string& p : r_.train->params)
      if (!updatedInPullback_.count(p)) rest.params.push_back(p);
    if (rest.params.empty()) return {};
    Type element = f_.param(rest.params.front())->type.element();
    StmtPtr update = updateStatement(rest, element, [&](const std::string& p) { return count(p); }, stream_, status());
    update->comment = "the update (" + rest.optimizer + ") of the trained parameters" +
                      (updatedInPullback_.empty() ? "" : " their GEMMs did not update") + ", all in one launch";
    return {update};
  }

  // SGD folded into GEMM pullbacks: a trained parameter whose gradient one GEMM's pullback alone
  // computes, writing it first (AdjointStarts: outside loops and ifs, the whole buffer), is
  // updated by that GEMM; one parameter per GEMM. Not under --deterministic: cuBLAS adds -lr times
  // the product in its epilogue, rounding once where the reference rounds the gradient first
  // (a last-bit difference on the GPU).
  void planUpdatesInPullbacks() {
    if (!train() || r_.train->optimizer != "sgd" || r_.train->deterministic) return;
    std::vector<std::vector<const BufferArg*>> buffers = pullbackBuffers();
    std::set<size_t> updating;
    for (const std::string& p : r_.train->params) {
      std::vector<size_t> takers;
      for (size_t k = 0; k < steps_.size(); ++k)
        if (std::any_of(buffers[k].begin(), buffers[k].end(), [&](const BufferArg* b) { return b && b->buffer == p; }))
          takers.push_back(k);
      if (takers.size() != 1 || steps_[takers[0]].kind != StepKind::Gemm || updating.count(takers[0])) continue;
      auto first = starts_.startsAt.find(takers[0]);
      if (first == starts_.startsAt.end() || !first->second.count(p)) continue;
      updatedInPullback_[p] = takers[0];
      updating.insert(takers[0]);
    }
  }

  // Each step's tangent, then (but for a kernel's jvp, which also computes what the kernel does)
  // the step itself.
  StmtList tangentSweep() {
    return inOrder([&](size_t k) {
      const Step& s = steps_[k];
      std::vector<ExprPtr> args = arguments(s, during(s));
      StmtList out{
          located(derivativeStatement(s, f_, false, args, derivativeArguments(s), kernelDerivative(s), status()), s)};
      if (s.kind != StepKind::Launch) out.push_back(forwardStatement(s, args, status()));
      return out;
    });
  }
};

}  // namespace

bool isHostLevel(const Function& f, const Module& m) {
  if (f.kernel || f.device) return false;
  bool steps = false;
  walk(f.body, [&](const Stmt& s) {
    if (steps || s.kind == StmtKind::Launch) {
      steps = true;
      return;
    }
    if (s.kind != StmtKind::Eval || s.expr->kind != ExprKind::Call) return;
    const std::string& callee = s.expr->text;
    const Function* g = m.find(callee);
    steps = callee.rfind("cublas", 0) == 0 || (g && g != &f && isHostLevel(*g, m));
  });
  return steps;
}

HostBufferSizes hostBufferSizes(const Module& m, const Function& f) {
  Request r{f.name, {}, true, std::nullopt};
  Requests q;
  return HostBuilder(m, f, r, q, Mode::Reverse).sizes();
}

Function hostDerivative(const Module& m, const Function& f, const Request& r, Requests& q, Mode mode) {
  return HostBuilder(m, f, r, q, mode).build();
}

}  // namespace adjoint::derive
