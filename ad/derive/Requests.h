// What is asked of differentiation: a request names the function and the parameters its derivative
// is with respect to; requests for callees follow from the calls met on the way, queued here.
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "ad/ir/Function.h"
#include "ad/ir/Naming.h"

namespace adjoint::derive {

enum class Mode { Reverse, Forward };

// A training step of host code (adjoint train-step): the parameters it trains, how, and the
// buffer holding the loss.
struct TrainStep {
  std::vector<std::string> params;
  std::string optimizer = "sgd";  // sgd, momentum, adamw
  std::string loss = "loss";
  // --deterministic: the step equals its unfused reference bitwise, so every update rounds as the
  // reference's does (gradient, then update), none folded into a GEMM's epilogue.
  bool deterministic = false;
};

struct Request {
  std::string function;
  std::set<std::string> wrt;         // differentiated parameters (output arrays always are)
  bool entry = false;                // the user's entry point (`f_grad`/`f_vjp`/`f_jvp`), else an internal helper
  std::optional<TrainStep> train{};  // the entry point is f_train_step
  // A kernel's vjp as a training step launches it: K_value_and_vjp, which also writes what the
  // kernel writes (the loss kernel and its backward as one launch), or K_vjp_from_output.
  ir::naming::Variant variant = ir::naming::Variant::Plain;
};

// The differentiated parameters of `f` for `wrt` (empty: every floating parameter): floating
// scalars and pointers named in `wrt`, and every array `f` writes (its bar carries the seed).
std::vector<const ir::Param*> differentiatedParams(const ir::Function& f, const std::set<std::string>& wrt);

// Bookkeeping shared by both modes: the queue of derivative functions still to generate.
class Requests {
 public:
  // The name of the derivative of `callee` with respect to `wrt`, queued if new.
  std::string need(const ir::Function& callee, const std::set<std::string>& wrt, Mode mode,
                   ir::naming::Variant variant = ir::naming::Variant::Plain);
  void enqueueEntry(const ir::Function& f, const Request& r, Mode mode);
  bool next(Request& out);

 private:
  std::map<std::tuple<std::string, std::set<std::string>, ir::naming::Variant>, std::string> names_;
  std::deque<Request> pending_;
};

// The name of the derivative of `f` a request asks for: f_grad, f_vjp, f_jvp for the entry point,
// f_pullback, K_vjp, f_jvp (with _wrt_... when not with respect to every parameter) for callees.
std::string derivativeName(const ir::Function& f, const std::set<std::string>& wrt, Mode mode, bool entry,
                           ir::naming::Variant variant = ir::naming::Variant::Plain);

}  // namespace adjoint::derive
