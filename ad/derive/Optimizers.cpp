#include "ad/derive/Optimizers.h"

#include "ad/ir/Naming.h"

namespace adjoint::derive {

using namespace ir;

namespace {

// The state buffers of each trained buffer.
std::vector<std::string> stateSuffixes(const std::string& optimizer) {
  if (optimizer == "momentum") return {"_velocity"};
  if (optimizer == "adamw") return {"_m", "_v"};
  return {};
}

std::vector<std::string> hyperparameters(const std::string& optimizer) {
  if (optimizer == "momentum") return {"lr", "momentum"};
  if (optimizer == "adamw") return {"lr", "beta1", "beta2", "eps", "weight_decay"};
  return {"lr"};
}

}  // namespace

bool isOptimizer(const std::string& name) { return name == "sgd" || name == "momentum" || name == "adamw"; }

std::vector<Param> optimizerParams(const TrainStep& train, const Type& element) {
  std::vector<Param> out;
  for (const std::string& p : train.params)
    for (const std::string& suffix : stateSuffixes(train.optimizer))
      out.push_back(Param{p + suffix, element.pointerTo(false), Role::OptimizerState, p});
  for (const std::string& h : hyperparameters(train.optimizer)) out.push_back(Param{h, element, Role::Hyperparameter});
  if (train.optimizer == "adamw") out.push_back(Param{"step", Type::integer(), Role::Hyperparameter});
  return out;
}

StmtPtr updateStatement(const TrainStep& train, const Type& element,
                        const std::function<ExprPtr(const std::string&)>& count, const ExprPtr& stream,
                        const ExprPtr& status) {
  std::vector<ExprPtr> args{stream};
  for (const std::string& h : hyperparameters(train.optimizer)) args.push_back(var(h, element));
  if (train.optimizer == "adamw") args.push_back(var("step", Type::integer()));
  for (const std::string& p : train.params) {
    std::vector<ExprPtr> update{var(p, element.pointerTo(false)), var(naming::adjointOf(p), element.pointerTo(false))};
    for (const std::string& suffix : stateSuffixes(train.optimizer))
      update.push_back(var(p + suffix, element.pointerTo(false)));
    update.push_back(count(p));
    args.push_back(call("adjoint::Update", update, Type::opaque("adjoint::Update")));
  }
  return assign(status, Op::Assign, call("adjoint::" + train.optimizer + "_all", args, Type::opaque("cudaError_t")));
}

}  // namespace adjoint::derive
