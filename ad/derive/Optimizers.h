// The update of a training step (adjoint train-step --optimizer): the parameters an optimizer adds
// to f_train_step, and its update of the trained buffers from their gradients (adjoint/optimizers.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ad/derive/Requests.h"

namespace adjoint::derive {

// Whether `name` is an optimizer Adjoint knows: sgd, momentum, adamw.
bool isOptimizer(const std::string& name);

// The optimizer's parameters of the step: state buffers per trained buffer (in order), then its
// hyperparameters, of element type `element`.
std::vector<ir::Param> optimizerParams(const TrainStep& train, const ir::Type& element);

// status = the update of every trained buffer in one launch (adjoint::sgd_all and the like):
// each from its gradient `<param>_bar`, `count(param)` elements.
ir::StmtPtr updateStatement(const TrainStep& train, const ir::Type& element,
                            const std::function<ir::ExprPtr(const std::string&)>& count, const ir::ExprPtr& stream,
                            const ir::ExprPtr& status);

}  // namespace adjoint::derive
