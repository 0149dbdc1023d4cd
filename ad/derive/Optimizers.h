// The update of a training step (adjoint train-step --optimizer): the parameters an optimizer adds
// to f_train_step, and its update of one trained buffer from its gradient (adjoint/optimizers.h).
#pragma once

#include <string>
#include <vector>

#include "ad/derive/Derivatives.h"

namespace adjoint::derive {

// Whether `name` is an optimizer Adjoint knows: sgd, momentum, adamw.
bool isOptimizer(const std::string& name);

// The optimizer's parameters of the step: state buffers per trained buffer (in order), then its
// hyperparameters, of element type `element`.
std::vector<ir::Param> optimizerParams(const TrainStep& train, const ir::Type& element);

// status = the update of `param` (count elements) from `gradient`.
ir::StmtPtr updateStatement(const TrainStep& train, const std::string& param, const ir::Type& type,
                            const ir::ExprPtr& gradient, const ir::ExprPtr& count, const ir::ExprPtr& stream,
                            const ir::ExprPtr& status);

}  // namespace adjoint::derive
