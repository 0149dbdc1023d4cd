#include "ad/derive/HostSteps.h"

#include <algorithm>

#include "ad/analysis/Activity.h"
#include "ad/analysis/Extents.h"
#include "ad/derive/HostGemms.h"
#include "ad/ir/Diagnostic.h"
#include "ad/ir/Names.h"

namespace adjoint::derive {

using namespace ir;

namespace {

const Type kCount = Type::integer("long long");
const Type kError = Type::opaque("cudaError_t");

}  // namespace

// `arg` as a pointer into one of host's buffers.
BufferArg bufferArg(const Stmt& s, const Function& host, size_t position, const ExprPtr& arg) {
  // (xs + a) + b, after a host function's parameter was replaced by an offset argument: xs + (a + b)
  auto [base, offset] = pointerArg(arg);
  if (base->kind != ExprKind::Var || !host.param(base->text))
    throw Diagnostic(s.loc,
                     "argument " + std::to_string(position + 1) + " of this " +
                         (s.kind == StmtKind::Launch ? "launch" : "call") + " is not a buffer parameter",
                     "pass the function's pointer parameters, or offsets into them (xs + l * n)");
  BufferArg b{position, base->text, offset};
  b.floating = host.param(base->text)->type.isFloating();
  return b;
}

namespace {

Step describeLaunch(const Stmt& s, const Function& host, const Module& m) {
  const Function* kernel = m.find(s.expr->text);
  if (!kernel || !kernel->kernel) throw InternalError("launch of '" + s.expr->text + "', which is not a kernel");
  Step step{&s, StepKind::Launch, s.args[3], kernel, {}, {}, {}};
  std::set<std::string> read = analysis::readVariablesBesidesUpdates(kernel->body);
  std::set<std::string> written = analysis::writtenVariables(kernel->body), updated;
  walk(kernel->body, [&](const Stmt& x) {
    if (x.kind == StmtKind::Assign && (x.op != Op::Assign || x.atomic)) updated.insert(rootName(*x.lhs));
  });
  for (size_t i = 0; i < s.expr->operands.size(); ++i) {
    const Param& p = kernel->params[i];
    if (!p.type.pointer) continue;
    BufferArg b = bufferArg(s, host, i, s.expr->operands[i]);
    b.reads = read.count(p.name) > 0;
    b.writes = written.count(p.name) > 0;
    b.updates = updated.count(p.name) > 0;
    b.floating = p.type.isFloating();
    step.buffers.push_back(b);
  }
  return step;
}

// cudaMemset(p, 0, bytes) and cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToDevice), and their
// Async forms on a stream.
bool isMemset(const std::string& callee) { return callee == "cudaMemset" || callee == "cudaMemsetAsync"; }
bool isMemcpy(const std::string& callee) { return callee == "cudaMemcpy" || callee == "cudaMemcpyAsync"; }

Step describeMemory(const Stmt& s, const Function& host) {
  const std::vector<ExprPtr>& args = s.expr->operands;
  bool set = isMemset(s.expr->text);
  bool async = s.expr->text.back() == 'c';
  size_t streamArg = set ? 3 : 4;
  Step step{&s,
            set ? StepKind::Memset : StepKind::Memcpy,
            async && args.size() > streamArg ? args[streamArg] : number(0, Type::integer()),
            nullptr,
            {},
            {},
            {}};
  if (set && !isZero(args[1]))
    throw Diagnostic(s.loc, "a cudaMemset of host code must zero its buffer",
                     "other byte patterns are not values Adjoint differentiates: write them with a kernel");
  if (!set && (args[3]->kind != ExprKind::Var ||
               (args[3]->text != "cudaMemcpyDeviceToDevice" && args[3]->text != "cudaMemcpyDefault")))
    throw Diagnostic(s.loc, "a cudaMemcpy of host code must copy from device to device",
                     "copies from and to host memory leave the buffers Adjoint differentiates");
  BufferArg to = bufferArg(s, host, 0, args[0]);
  to.writes = true;
  step.buffers.push_back(to);
  if (!set) {
    BufferArg from = bufferArg(s, host, 1, args[1]);
    from.reads = true;
    step.buffers.push_back(from);
  }
  return step;
}

ExprPtr count(const ExprPtr& e) { return cast(kCount, e); }

// The elements of `bytes` bytes of b's buffer.
ExprPtr elements(const ExprPtr& bytes, const Function& host, const BufferArg& b) {
  Type element = host.param(b.buffer)->type.element();
  return div(count(bytes), call("sizeof", {var(element.scalarSpelling(), Type::opaque("type"))}, kCount));
}

// The configuration's dimension `d` (x, y, z) of `config` (an integer or a dim3).
ExprPtr dimension(const ExprPtr& config, char d) {
  if (config->type.scalar == Scalar::Opaque) return member(config, std::string(1, d));
  return d == 'x' ? config : number(1, Type::integer("unsigned int", true));
}

analysis::AccessExtent kernelExtent(const Step& step, const BufferArg& b) {
  const Stmt& s = *step.stmt;
  const Function& kernel = *step.kernel;
  analysis::AccessExtent a = analysis::accessExtent(kernel, kernel.params[b.position].name);
  if (!a.extent && !a.unboundedReads)
    throw Diagnostic(s.loc,
                     "cannot tell how many elements of '" + b.buffer + "' the kernel '" + kernel.name + "' writes",
                     "Adjoint copies the buffers the forward writes; guard the kernel's indices with the sizes it "
                     "is passed (if (i < n)) or index them in counted loops (for (int j = 0; j < C; ++j))");
  if (!a.extent) return a;
  std::map<std::string, ExprPtr> values;
  for (size_t i = 0; i < kernel.params.size(); ++i) values[kernel.params[i].name] = s.expr->operands[i];
  for (char d : {'x', 'y', 'z'}) {
    values[std::string("gridDim.") + d] = dimension(s.args[0], d);
    values[std::string("blockDim.") + d] = dimension(s.args[1], d);
  }
  a.extent = substitute(a.extent, [&](const Expr& v) {
    auto it = values.find(v.text);
    return it == values.end() ? nullptr : it->second;
  });
  return a;
}

}  // namespace

bool Step::writes(const std::string& buffer) const {
  return std::any_of(buffers.begin(), buffers.end(),
                     [&](const BufferArg& b) { return b.buffer == buffer && b.writes; });
}
bool Step::reads(const std::string& buffer) const {
  return std::any_of(buffers.begin(), buffers.end(), [&](const BufferArg& b) { return b.buffer == buffer && b.reads; });
}

std::optional<Step> describeStep(const Stmt& s, const Function& host, const Module& m, const StmtList& locals) {
  if (s.kind == StmtKind::Launch) return describeLaunch(s, host, m);
  if (s.kind != StmtKind::Eval || s.expr->kind != ExprKind::Call) return std::nullopt;
  if (isGemm(s.expr->text)) return describeGemm(s, host, locals);
  if (isMemset(s.expr->text) || isMemcpy(s.expr->text)) return describeMemory(s, host);
  return std::nullopt;
}

analysis::AccessExtent stepExtent(const Step& step, const Function& host, const BufferArg& b) {
  analysis::AccessExtent a;
  if (step.kind == StepKind::Launch)
    a = kernelExtent(step, b);
  else if (step.kind == StepKind::Gemm)
    a.extent = gemmExtent(step, b);
  else
    a.extent = elements(step.stmt->expr->operands[2], host, b);
  if (a.extent && b.offset) a.extent = add(b.offset, a.extent);
  return a;
}

StmtPtr forwardStatement(const Step& step, std::vector<ExprPtr> args, const ExprPtr& status) {
  if (step.kind == StepKind::Gemm) return assign(status, Op::Assign, gemmCall(step, std::move(args)));
  if (step.kind != StepKind::Launch)
    return assign(status, Op::Assign, call(step.stmt->expr->text, std::move(args), kError));
  StmtPtr s = launch(call(step.kernel->name, std::move(args), Type::of(Scalar::Void)), step.stmt->args);
  s->lhs = status;
  return s;
}

StmtPtr derivativeStatement(const Step& step, const Function& host, bool reverse, std::vector<ExprPtr> args,
                            std::vector<ExprPtr> derivatives, const std::string& kernelDerivative,
                            const ExprPtr& status, const ExprPtr& told) {
  switch (step.kind) {
    case StepKind::Launch: {
      args.insert(args.end(), derivatives.begin(), derivatives.end());
      if (told) args.push_back(told);
      StmtPtr s = launch(call(kernelDerivative, std::move(args), Type::of(Scalar::Void)), step.stmt->args);
      s->lhs = status;
      s->throughLauncher = true;
      return s;
    }
    case StepKind::Gemm:
      return assign(status, Op::Assign, gemmDerivative(step, reverse, args, derivatives, told));
    case StepKind::Memset:  // the zeroed values: derivative zero
      return assign(
          status, Op::Assign,
          call("cudaMemsetAsync", {derivatives[0], number(0, Type::integer()), args[2], step.stream}, kError));
    case StepKind::Memcpy: {  // to = from:  from_bar += to_bar, to_bar = 0;  to_dot = from_dot
      ExprPtr n = elements(args[2], host, step.buffers[0]);
      if (!reverse)
        return assign(status, Op::Assign,
                      call("adjoint::copy", {derivatives[0], derivatives[1], n, step.stream}, kError));
      if (derivatives[1]->kind == ExprKind::Var && derivatives[1]->text == "nullptr")  // from has no adjoint
        return assign(
            status, Op::Assign,
            call("cudaMemsetAsync", {derivatives[0], number(0, Type::integer()), args[2], step.stream}, kError));
      return assign(status, Op::Assign,
                    call("adjoint::copy_vjp", {derivatives[1], derivatives[0], n, step.stream}, kError));
    }
  }
  throw InternalError("a host step of no kind");
}

}  // namespace adjoint::derive
