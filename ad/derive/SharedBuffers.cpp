#include "ad/derive/SharedBuffers.h"

#include "ad/ir/Naming.h"

namespace adjoint::derive {

using namespace ir;

namespace {

const Type kCount = Type::integer("long long");
const Type kBool = Type::of(Scalar::Bool);

const std::string& paramName(const Step& step, const BufferArg& b) { return step.kernel->params[b.position].name; }

bool sameOffset(const BufferArg& a, const BufferArg& b) {
  return a.offset && b.offset ? sameExpr(*a.offset, *b.offset) : !a.offset && !b.offset;
}

}  // namespace

std::vector<PrivateAdjoint> planPrivateAdjoints(const std::vector<Step>& steps,
                                                const std::vector<std::vector<const BufferArg*>>& derivatives,
                                                NameSet& names) {
  std::vector<PrivateAdjoint> out;
  for (size_t k = 0; k < steps.size(); ++k) {
    if (steps[k].kind != StepKind::Launch) continue;
    const std::vector<const BufferArg*>& args = derivatives[k];
    for (size_t j = 0; j < args.size(); ++j) {
      if (!args[j] || args[j]->writes) continue;
      std::vector<size_t> others;
      bool always = false;
      for (size_t i = 0; i < args.size(); ++i)
        if (i != j && args[i] && args[i]->buffer == args[j]->buffer && (args[i]->writes || i < j)) {
          others.push_back(i);
          always = always || sameOffset(*args[i], *args[j]);
        }
      if (others.empty()) continue;
      const std::string& param = paramName(steps[k], *args[j]);
      std::string name = names.fresh(naming::adjointOf(args[j]->buffer) + "_" + param);
      out.push_back({k, j, name, names.fresh(name + "_count"), others, always ? "" : names.fresh(param + "_overlaps")});
    }
  }
  return out;
}

std::vector<ExprPtr> withPrivateAdjoints(size_t k, const std::vector<PrivateAdjoint>& privates,
                                         std::vector<ExprPtr> real) {
  for (const PrivateAdjoint& a : privates) {
    if (a.step != k) continue;
    ExprPtr apart = var(a.name, real[a.argument]->type);
    real[a.argument] = a.overlaps.empty() ? apart : select(var(a.overlaps, kBool), apart, real[a.argument]);
  }
  return real;
}

StmtList checkOverlaps(size_t k, const std::vector<PrivateAdjoint>& privates, const Step& step,
                       const std::vector<const BufferArg*>& derivatives, const Touched& touched) {
  StmtList out;
  auto offset = [](const BufferArg& b) { return b.offset ? cast(kCount, b.offset) : number(0, kCount); };
  for (const PrivateAdjoint& a : privates) {
    if (a.step != k || a.overlaps.empty()) continue;
    const BufferArg& b = *derivatives[a.argument];
    ExprPtr any;
    for (size_t i : a.others) {
      const BufferArg& other = *derivatives[i];
      ExprPtr o = call("adjoint::overlap", {offset(b), touched(b), offset(other), touched(other)}, kBool);
      any = any ? binary(Op::Or, any, o) : o;
    }
    out.push_back(
        withComment(decl(a.overlaps, kBool, any), "whether what '" + paramName(step, b) + "' reads of " + b.buffer +
                                                      " overlaps what the launch's other parameters touch there"));
  }
  return out;
}

StmtList addPrivateAdjoints(size_t k, const std::vector<PrivateAdjoint>& privates, const Step& step,
                            const std::vector<const BufferArg*>& derivatives, const std::vector<ExprPtr>& real,
                            const Touched& touched, const ExprPtr& stream, const ExprPtr& status) {
  StmtList out;
  for (const PrivateAdjoint& a : privates) {
    if (a.step != k) continue;
    const BufferArg& b = *derivatives[a.argument];
    ExprPtr n = step.loop < 0 ? var(a.count, kCount) : touched(b);
    ExprPtr added = call("adjoint::copy_vjp", {real[a.argument], var(a.name, real[a.argument]->type), n, stream},
                         Type::opaque("cudaError_t"));
    StmtPtr add = withComment(assign(status, Op::Assign, added), "the adjoint through '" + paramName(step, b) +
                                                                     "' added into " + naming::adjointOf(b.buffer));
    out.push_back(a.overlaps.empty() ? add : ifStmt(var(a.overlaps, kBool), {add}));
  }
  return out;
}

}  // namespace adjoint::derive
