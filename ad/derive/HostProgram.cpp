#include "ad/derive/HostProgram.h"

#include <algorithm>
#include <map>

#include "ad/derive/HostLevel.h"
#include "ad/ir/Diagnostic.h"

namespace adjoint::derive {

using namespace ir;

namespace {

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

// The default stream: 0, or a null pointer (NULL, nullptr), as a cudaStream_t is written.
bool isDefaultStream(const Expr& e) {
  if (e.kind == ExprKind::Cast) return isDefaultStream(*e.operands[0]);
  return (e.kind == ExprKind::Number && e.value == 0) ||
         (e.kind == ExprKind::Var && (e.text == "nullptr" || e.text == "NULL"));
}
bool sameStream(const Expr& a, const Expr& b) { return sameExpr(a, b) || (isDefaultStream(a) && isDefaultStream(b)); }

class HostReader {
 public:
  HostReader(const Function& f, const Module& m, NameSet& names) : f_(f), m_(m), names_(names) {}

  // The steps and f's locals; anything else host code may do is not supported yet.
  HostProgram read() {
    collect(f_.body, 0);
    // One stream: the launches' and copies' (a GEMM runs on its handle's).
    for (const Step& s : steps_) {
      if (s.kind == StepKind::Gemm) continue;
      if (stream_ && !sameStream(*stream_, *s.stream))
        throw Diagnostic(s.stmt->loc, "kernels launched on different streams",
                         "launch every kernel of the function on one stream (a parameter)");
      stream_ = s.stream;
    }
    for (const Step& s : steps_)
      if (!stream_) stream_ = s.stream;
    return std::move(program_);
  }

 private:
  const Function& f_;
  const Module& m_;
  NameSet& names_;
  HostProgram program_;
  StmtList& locals_ = program_.locals;
  StmtList& inlined_ = program_.inlined;
  std::vector<Step>& steps_ = program_.steps;
  std::vector<HostLoop>& loops_ = program_.loops;
  ExprPtr& stream_ = program_.stream;

  // The steps of `body`, in the host loop `loop` (or none: -1), where `condition` holds (null:
  // always).
  void collect(const StmtList& body, int depth, int loop = -1, const ExprPtr& condition = nullptr) {
    for (const StmtPtr& s : body) {
      if (s->kind == StmtKind::Decl && !s->type.isIndexed() && s->expr && !condition) {
        (loop < 0 ? locals_ : loops_[loop].locals).push_back(s);
      } else if (std::optional<Step> step = describeStep(*s, f_, m_, visibleLocals(loop))) {
        step->loop = loop;
        step->condition = condition;
        steps_.push_back(*step);
      } else if (const Function* g = hostCallee(*s)) {
        if (depth > 32)
          throw Diagnostic(s->loc, "host functions calling each other more than 32 deep",
                           "recursion in host code is not supported");
        collect(inlined(*s, *g), depth + 1, loop, condition);
      } else if (s->kind == StmtKind::For && loop < 0 && !condition) {
        collectLoop(*s, depth);
      } else if (s->kind == StmtKind::If && hostCondition(*s, loop)) {
        collect(s->body, depth, loop, both(condition, s->expr));
        collect(s->elseBody, depth, loop, both(condition, unary(Op::Not, s->expr)));
      } else {
        throw Diagnostic(s->loc,
                         describe(*s) + (loop < 0 ? "" : " in a loop") + (condition ? " under an if" : "") +
                             " is not supported in host code over kernels",
                         "host code that Adjoint differentiates declares sizes and launch configurations, launches "
                         "kernels, calls cuBLAS GEMMs (cublasSgemm / cublasDgemm, cublasGemmEx, their strided "
                         "batched forms), zeroes or copies with cudaMemsetAsync / cudaMemcpyAsync, calls such host "
                         "functions, runs them in counted loops (for (int l = 0; l < layers; ++l)) not nested in "
                         "each other and chooses them by ifs on host values (sizes, flags, null pointers), on the "
                         "buffers it is passed");
      }
    }
  }

  static ExprPtr both(const ExprPtr& a, const ExprPtr& b) { return a ? binary(Op::And, a, b) : b; }

  // Whether the if `s` chooses steps by values of the host alone, which no step changes (sizes,
  // flags, pointers tested against null, the loop's counter): the reverse sweep then chooses the
  // same pullbacks by the same condition.
  bool hostCondition(const Stmt& s, int loop) const {
    bool host = true;
    walk(s.expr, [&](const Expr& e) {
      if (e.kind == ExprKind::Call || e.kind == ExprKind::Index || isOp(e, Op::Deref)) host = false;
      if (e.kind != ExprKind::Var || e.type.scalar == Scalar::Opaque || e.text == "nullptr") return;
      bool local = std::any_of(locals_.begin(), locals_.end(), [&](const StmtPtr& d) { return d->name == e.text; });
      if (loop >= 0) {
        const HostLoop& l = loops_[loop];
        local |= e.text == l.header.counter ||
                 std::any_of(l.locals.begin(), l.locals.end(), [&](const StmtPtr& d) { return d->name == e.text; });
      }
      if (!local && !f_.param(e.text)) host = false;
    });
    if (!host)
      throw Diagnostic(s.loc, "the condition of an if in host code must read host values alone",
                       "test sizes, flags, the loop's counter or pointers against null; values on the device "
                       "(what the kernels compute) cannot choose the steps");
    return true;
  }

  StmtList visibleLocals(int loop) const {
    StmtList out = locals_;
    if (loop >= 0) out.insert(out.end(), loops_[loop].locals.begin(), loops_[loop].locals.end());
    return out;
  }

  void collectLoop(const Stmt& s, int depth) {
    HostLoop loop{&s, {}, {}, steps_.size(), 0, ""};
    if (!analysis::asCountedLoop(s, loop.header) || loop.header.step)
      throw Diagnostic(s.loc, "a loop of host code must count by one: for (int l = a; l < b; ++l)",
                       "Adjoint runs the loop's pullbacks in a loop that counts back; other loops are not "
                       "supported in host code");
    loops_.push_back(loop);
    collect(s.body, depth, static_cast<int>(loops_.size() - 1));
    loops_.back().end = steps_.size();
  }

  // The host function that `s` calls, if any.
  const Function* hostCallee(const Stmt& s) const {
    if (s.kind != StmtKind::Eval || s.expr->kind != ExprKind::Call) return nullptr;
    const Function* g = m_.find(s.expr->text);
    return g && isHostLevel(*g, m_) ? g : nullptr;
  }

  // g's body with its parameters replaced by the call's arguments and its locals renamed apart:
  // its steps are f's steps (each keeps the source line it comes from).
  StmtList inlined(const Stmt& call, const Function& g) {
    std::map<std::string, ExprPtr> values;
    for (size_t i = 0; i < g.params.size(); ++i) values[g.params[i].name] = call.expr->operands[i];
    StmtList body = clone(g.body);
    for (const StmtPtr& d : body)
      if (d->kind == StmtKind::Decl) {
        std::string name = names_.fresh(d->name);
        values[d->name] = var(name, d->type);
        d->name = name;
      }
    substitute(body, values);
    inlined_.insert(inlined_.end(), body.begin(), body.end());
    return body;
  }
};

}  // namespace

HostProgram readHostProgram(const Function& f, const Module& m, NameSet& names) {
  return HostReader(f, m, names).read();
}

}  // namespace adjoint::derive
