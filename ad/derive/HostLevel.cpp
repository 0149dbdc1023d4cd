#include "ad/derive/HostLevel.h"

#include <map>

#include "ad/analysis/Activity.h"
#include "ad/analysis/Extents.h"
#include "ad/ir/Diagnostic.h"
#include "ad/ir/Names.h"

namespace adjoint::derive {

using namespace ir;

namespace {

const Type kCount = Type::integer("long long");
const Type kStatus = Type::opaque("adjoint::FirstError");
const Type kScratch = Type::opaque("adjoint::Scratch");

// One pointer argument of a launch: which of f's buffers it points into, and where.
struct BufferArg {
  size_t position;   // among the kernel's arguments
  std::string buffer;
  ExprPtr offset;    // null: the start of the buffer
  bool reads = false, writes = false;
};

struct Launch {
  const Stmt* stmt;
  const Function* kernel;
  std::vector<BufferArg> buffers;
  std::map<std::string, std::string> before, after;  // buffer -> the version the launch reads, leaves
};

// A copy of a buffer that the forward sweep writes into.
struct Version {
  std::string name, buffer;
  size_t createdBefore;  // the launch before which it is made, as a copy of the version before it
  std::string copiedFrom;
};

std::string describe(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::If:
      return "an if";
    case StmtKind::For:
    case StmtKind::While:
    case StmtKind::DoWhile:
      return "a loop";
    case StmtKind::Assign:
      return "an assignment";
    case StmtKind::Eval:
      return "a call to '" + (s.expr->kind == ExprKind::Call ? s.expr->text : std::string("?")) + "'";
    default:
      return "this statement";
  }
}

class HostBuilder {
 public:
  HostBuilder(const Module& m, const Function& f, const Request& r, Requests& q, Mode mode)
      : m_(m), f_(f), r_(r), q_(q), mode_(mode), names_(f) {}

  Function build() {
    collect();
    Function g;
    g.name = derivativeName(f_, r_.wrt, mode_, true);
    g.returnType = Type::opaque("cudaError_t");
    g.params = f_.params;
    g.primal = f_.name;
    g.loc = f_.loc;
    g.internal = !r_.entry;
    for (const Param& p : f_.params)
      if (p.type.pointer && p.type.isFloating())  // directions of buffers f only reads are const
        g.params.push_back(Param{p.name + suffix(), p.type.element().pointerTo(mode_ == Mode::Forward && !writes(p.name)),
                                 mode_ == Mode::Reverse ? Role::Adjoint : Role::Tangent, p.name});
    for (const Param& p : g.params) names_.insert(p.name);
    planVersions();
    g.body = configuration_;
    StmtList scratch = allocateVersions();
    g.body.insert(g.body.end(), scratch.begin(), scratch.end());
    StmtList sweeps = mode_ == Mode::Reverse ? reverseSweeps() : tangentSweep();
    g.body.insert(g.body.end(), sweeps.begin(), sweeps.end());
    g.body.push_back(ret(var(status_, kStatus)));
    return g;
  }

 private:
  const Module& m_;
  const Function& f_;
  const Request& r_;
  Requests& q_;
  Mode mode_;
  NameSet names_;
  StmtList configuration_;  // f's own locals: sizes and launch configurations
  std::vector<Launch> launches_;
  std::vector<Version> versions_;
  std::string status_, scratch_;
  std::map<std::string, std::string> counts_;  // buffer -> the local holding its extent
  ExprPtr stream_;

  bool writes(const std::string& buffer) const {
    for (const Launch& l : launches_)
      for (const BufferArg& b : l.buffers)
        if (b.buffer == buffer && b.writes) return true;
    return false;
  }

  std::string suffix() const { return mode_ == Mode::Reverse ? "_bar" : "_dot"; }

  // The launches and f's locals; anything else host code may do is not supported yet.
  void collect() {
    for (const StmtPtr& s : f_.body) {
      if (s->kind == StmtKind::Decl && !s->type.isIndexed() && s->expr) {
        configuration_.push_back(s);
      } else if (s->kind == StmtKind::Launch) {
        launches_.push_back(describeLaunch(*s));
      } else {
        throw Diagnostic(s->loc, describe(*s) + " is not supported in host code over kernels",
                         "host code that Adjoint differentiates declares sizes and launch configurations and "
                         "launches kernels on the buffers it is passed");
      }
    }
    for (const Launch& l : launches_) {
      ExprPtr stream = l.stmt->args[3];
      if (stream_ && !sameExpr(*stream_, *stream))
        throw Diagnostic(l.stmt->loc, "kernels launched on different streams",
                         "launch every kernel of the function on one stream (a parameter)");
      stream_ = stream;
    }
  }

  Launch describeLaunch(const Stmt& s) {
    const Function* kernel = m_.find(s.expr->text);
    if (!kernel || !kernel->kernel) throw InternalError("launch of '" + s.expr->text + "', which is not a kernel");
    Launch l{&s, kernel, {}, {}, {}};
    std::set<std::string> read = analysis::readVariablesBesidesUpdates(kernel->body);
    std::set<std::string> written = analysis::writtenVariables(kernel->body);
    for (size_t i = 0; i < s.expr->operands.size(); ++i) {
      const Param& p = kernel->params[i];
      if (!p.type.pointer) continue;
      const ExprPtr& arg = s.expr->operands[i];
      bool offset = isOp(*arg, Op::Add);
      const ExprPtr& base = offset ? arg->operands[0] : arg;
      if (base->kind != ExprKind::Var || !f_.param(base->text))
        throw Diagnostic(s.loc, "argument " + std::to_string(i + 1) + " of this launch is not a buffer parameter",
                         "pass the kernel the function's pointer parameters, or offsets into them (xs + l * n)");
      l.buffers.push_back({i, base->text, offset ? arg->operands[1] : nullptr, read.count(p.name) > 0,
                           written.count(p.name) > 0});
    }
    return l;
  }

  // ---- buffers: extents and versions -----------------------------------------------------------

  // The configuration's dimension `d` (x, y, z) of `config` (an integer or a dim3).
  static ExprPtr dimension(const ExprPtr& config, char d) {
    if (config->type.scalar == Scalar::Opaque) return member(config, std::string(1, d));
    return d == 'x' ? config : number(1, Type::integer("unsigned int", true));
  }

  // How many elements of `b.buffer` the launch touches, counted from the start of the buffer.
  ExprPtr extent(const Launch& l, const BufferArg& b) const {
    const Param& p = l.kernel->params[b.position];
    ExprPtr e = analysis::accessExtent(*l.kernel, p.name);
    if (!e)
      throw Diagnostic(l.stmt->loc,
                       "cannot tell how many elements of '" + b.buffer + "' the kernel '" + l.kernel->name + "' touches",
                       "Adjoint copies the buffers the forward writes; guard the kernel's indices with the sizes it "
                       "is passed (if (i < n)) or index them in counted loops (for (int j = 0; j < C; ++j))");
    std::map<std::string, ExprPtr> values;
    for (size_t i = 0; i < l.kernel->params.size(); ++i) values[l.kernel->params[i].name] = l.stmt->expr->operands[i];
    for (char d : {'x', 'y', 'z'}) {
      values[std::string("gridDim.") + d] = dimension(l.stmt->args[0], d);
      values[std::string("blockDim.") + d] = dimension(l.stmt->args[1], d);
    }
    e = substitute(e, [&](const Expr& v) {
      auto it = values.find(v.text);
      return it == values.end() ? nullptr : it->second;
    });
    return b.offset ? add(b.offset, e) : e;
  }

  // The elements of `buffer` that any launch touches.
  ExprPtr extent(const std::string& buffer) const {
    std::vector<ExprPtr> extents;
    for (const Launch& l : launches_)
      for (const BufferArg& b : l.buffers)
        if (b.buffer == buffer) {
          ExprPtr e = extent(l, b);
          if (std::none_of(extents.begin(), extents.end(), [&](const ExprPtr& x) { return sameExpr(*x, *e); }))
            extents.push_back(e);
        }
    ExprPtr out = extents.front();
    for (size_t i = 1; i < extents.size(); ++i) out = call("std::max<long long>", {out, extents[i]}, kCount);
    return out;
  }

  // Each launch that writes a buffer writes a copy of it: the first copy of the caller's buffer,
  // and a new copy where the pullback of a launch before (or of this launch) reads what it holds.
  void planVersions() {
    std::map<std::string, std::string> current;
    std::set<std::string> needed;  // versions a pullback reads
    for (const Param& p : f_.params) current[p.name] = p.name;
    for (size_t k = 0; k < launches_.size(); ++k) {
      Launch& l = launches_[k];
      l.before = current;
      for (const BufferArg& b : l.buffers) {
        if (!b.writes) continue;
        const std::string& now = current[b.buffer];
        bool readHere = std::any_of(l.buffers.begin(), l.buffers.end(),
                                    [&](const BufferArg& o) { return o.buffer == b.buffer && o.reads; });
        bool fresh = now == b.buffer || (mode_ == Mode::Reverse && (needed.count(now) || readHere));
        if (!fresh || l.after.count(b.buffer)) continue;
        std::string name = names_.fresh(b.buffer + "_" + std::to_string(versionsOf(b.buffer) + 1));
        versions_.push_back({name, b.buffer, k, now});
        current[b.buffer] = name;
        l.after[b.buffer] = name;
      }
      for (const BufferArg& b : l.buffers)
        if (b.reads) needed.insert(l.before[b.buffer]);
    }
  }

  size_t versionsOf(const std::string& buffer) const {
    return std::count_if(versions_.begin(), versions_.end(), [&](const Version& v) { return v.buffer == buffer; });
  }

  StmtList allocateVersions() {
    status_ = names_.fresh("status");
    StmtList out;
    out.push_back(withComment(decl(status_, kStatus, nullptr),
                              "the first error of the launches and copies below (the later ones still run)"));
    if (versions_.empty()) return out;
    scratch_ = names_.fresh("scratch");
    StmtPtr scratch = decl(scratch_, kScratch, call("adjoint::Scratch", {stream_}, kScratch));
    out.push_back(withComment(
        scratch, "The forward runs in copies of the buffers it writes, leaving yours as they came in; scratch\n"
                 "memory of the stream, reused from call to call."));
    for (const Version& v : versions_) {
      if (!counts_.count(v.buffer)) {
        counts_[v.buffer] = names_.fresh(v.buffer + "_count");
        out.push_back(withComment(decl(counts_[v.buffer], kCount, extent(v.buffer)),
                                  "elements of " + v.buffer + " the kernels touch"));
      }
      Type t = f_.param(v.buffer)->type.element().pointerTo(false);
      out.push_back(decl(v.name, t, call(scratch_ + ".take<" + t.scalarSpelling() + ">", {count(v.buffer)}, t)));
    }
    out.push_back(ifStmt(unary(Op::Not, var(scratch_, kScratch)),
                         {ret(call(scratch_ + ".status", {}, Type::opaque("cudaError_t")))}));
    return out;
  }

  ExprPtr count(const std::string& buffer) const { return var(counts_.at(buffer), kCount); }

  // The copies made before launch k.
  StmtList copiesBefore(size_t k) const {
    StmtList out;
    for (const Version& v : versions_) {
      if (v.createdBefore != k) continue;
      const Type& t = f_.param(v.buffer)->type;
      ExprPtr copy = call("adjoint::copy", {var(v.name, t), var(v.copiedFrom, t), count(v.buffer), stream_},
                          Type::opaque("cudaError_t"));
      out.push_back(assign(var(status_, kStatus), Op::Assign, copy));
    }
    return out;
  }

  // ---- the sweeps ------------------------------------------------------------------------------

  // The kernel's arguments with each buffer replaced by its version in `versions`.
  std::vector<ExprPtr> arguments(const Launch& l, const std::map<std::string, std::string>& versions) const {
    std::vector<ExprPtr> args = l.stmt->expr->operands;
    for (const BufferArg& b : l.buffers) {
      auto it = versions.find(b.buffer);
      std::string name = it == versions.end() ? b.buffer : it->second;
      Type t = f_.param(b.buffer)->type;
      if (name != b.buffer) t.constPointee = false;
      args[b.position] = b.offset ? binary(Op::Add, var(name, t), b.offset) : var(name, t);
    }
    return args;
  }

  // The derivative arrays of the kernel's floating buffers, in the kernel's parameter order.
  std::vector<ExprPtr> derivativeArguments(const Launch& l) const {
    std::vector<ExprPtr> out;
    for (const BufferArg& b : l.buffers) {
      const Param& p = l.kernel->params[b.position];
      if (!p.type.isFloating()) continue;
      ExprPtr d = var(b.buffer + suffix(), f_.param(b.buffer)->type.element().pointerTo(!writes(b.buffer)));
      out.push_back(b.offset ? binary(Op::Add, d, b.offset) : d);
    }
    return out;
  }

  std::set<std::string> kernelWrt(const Launch& l) const {
    std::set<std::string> wrt;
    for (const BufferArg& b : l.buffers)
      if (l.kernel->params[b.position].type.isFloating()) wrt.insert(l.kernel->params[b.position].name);
    return wrt;
  }

  StmtPtr launchStmt(const Launch& l, const std::string& kernel, std::vector<ExprPtr> args, bool launcher) const {
    StmtPtr s = launch(call(kernel, std::move(args), Type::of(Scalar::Void)), l.stmt->args);
    s->lhs = var(status_, kStatus);
    s->throughLauncher = launcher;
    s->loc = l.stmt->loc;
    return s;
  }

  std::string lineComment(const Launch& l) const {
    std::string line = m_.sourceLine(l.stmt->loc.line);
    return line.empty() ? "" : "line " + std::to_string(l.stmt->loc.line) + ": " + line;
  }

  StmtList reverseSweeps() {
    StmtList forward, reverse;
    for (size_t k = 0; k < launches_.size(); ++k) {
      const Launch& l = launches_[k];
      StmtList copies = copiesBefore(k);
      forward.insert(forward.end(), copies.begin(), copies.end());
      std::map<std::string, std::string> during = l.before;
      for (const auto& [buffer, version] : l.after) during[buffer] = version;
      forward.push_back(withComment(launchStmt(l, l.kernel->name, arguments(l, during), false), lineComment(l)));
    }
    for (size_t k = launches_.size(); k-- > 0;) {
      const Launch& l = launches_[k];
      std::string pullback = q_.need(*l.kernel, kernelWrt(l), Mode::Reverse);
      std::vector<ExprPtr> args = arguments(l, l.before);
      for (const ExprPtr& d : derivativeArguments(l)) args.push_back(d);
      reverse.push_back(withComment(launchStmt(l, pullback, args, true), lineComment(l)));
    }
    if (!forward.empty()) forward.front()->section = Section::Forward;
    if (!reverse.empty()) reverse.front()->section = Section::Reverse;
    forward.insert(forward.end(), reverse.begin(), reverse.end());
    return forward;
  }

  StmtList tangentSweep() {
    StmtList out;
    for (size_t k = 0; k < launches_.size(); ++k) {
      const Launch& l = launches_[k];
      StmtList copies = copiesBefore(k);
      out.insert(out.end(), copies.begin(), copies.end());
      std::map<std::string, std::string> during = l.before;
      for (const auto& [buffer, version] : l.after) during[buffer] = version;
      std::string tangent = q_.need(*l.kernel, kernelWrt(l), Mode::Forward);
      std::vector<ExprPtr> args = arguments(l, during);
      for (const ExprPtr& d : derivativeArguments(l)) args.push_back(d);
      out.push_back(withComment(launchStmt(l, tangent, args, true), lineComment(l)));
    }
    return out;
  }
};

}  // namespace

bool isHostLevel(const Function& f) {
  if (f.kernel || f.device) return false;
  bool launches = false;
  walk(f.body, [&](const Stmt& s) { launches |= s.kind == StmtKind::Launch; });
  return launches;
}

Function hostDerivative(const Module& m, const Function& f, const Request& r, Requests& q, Mode mode) {
  return HostBuilder(m, f, r, q, mode).build();
}

}  // namespace adjoint::derive
