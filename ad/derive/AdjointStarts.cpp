#include "ad/derive/AdjointStarts.h"

#include <algorithm>

namespace adjoint::derive {

bool AdjointStarts::starts(const std::string& buffer) const {
  return std::any_of(startsAt.begin(), startsAt.end(), [&](const auto& s) { return s.second.count(buffer) > 0; });
}

namespace {

bool takes(const std::vector<const BufferArg*>& derivatives, const std::string& buffer) {
  return std::any_of(derivatives.begin(), derivatives.end(),
                     [&](const BufferArg* b) { return b && b->buffer == buffer; });
}

// Whether step k's pullback keeps adjoint::Bars::fresh's promise. `touched`: the buffers whose
// adjoints the pullbacks run before it (of the later steps) took. A launch in a loop runs its
// pullback again, under an if perhaps not at all; two arguments into one buffer get private
// adjoints (SharedBuffers.h), added after the pullback.
bool keepsFreshPromise(size_t k, const std::vector<Step>& steps,
                       const std::vector<std::vector<const BufferArg*>>& derivatives,
                       const std::set<std::string>& touched, const std::string& loss,
                       const std::vector<std::string>& trained) {
  const Step& s = steps[k];
  if (s.kind != StepKind::Launch || s.loop >= 0 || s.condition) return false;
  std::set<std::string> buffers;
  for (const BufferArg& b : s.buffers)
    if (!buffers.insert(b.buffer).second) return false;
  for (const BufferArg* b : derivatives[k]) {
    if (!b) continue;
    if (!b->writes) {  // an input: its adjoint still zero
      if (touched.count(b->buffer) || b->buffer == loss) return false;
      continue;
    }
    // A written buffer: nothing reads its adjoint after this pullback.
    if (std::find(trained.begin(), trained.end(), b->buffer) != trained.end()) return false;
    for (size_t j = 0; j < k; ++j)
      if (takes(derivatives[j], b->buffer)) return false;
  }
  return true;
}

}  // namespace

AdjointStarts planAdjointStarts(const std::vector<Step>& steps,
                                const std::vector<std::vector<const BufferArg*>>& derivatives, const std::string& loss,
                                const std::vector<std::string>& trained, bool deterministic) {
  AdjointStarts out;
  std::set<std::string> touched;  // by the pullbacks run so far
  for (size_t k = steps.size(); k-- > 0;) {
    const std::vector<const BufferArg*>& own = derivatives[k];
    if (own.empty()) continue;
    const Step& s = steps[k];
    if (keepsFreshPromise(k, steps, derivatives, touched, loss, trained)) out.fresh.insert(k);
    // A GEMM's derivatives are those of A, B and C, in order. In a loop, an earlier iteration's
    // pullback runs after this one, and under an if the pullback may not run: neither holds there. The adjoints of a
    // batch's operands are added to batch by batch: they start zeroed.
    if (s.kind == StepKind::Gemm && s.loop < 0 && !s.condition) {
      const std::string& c = s.buffers[2].buffer;
      for (size_t operand : {0, 1}) {
        const BufferArg* b = own[operand];
        const BufferArg* other = own[1 - operand];
        if (b && !deterministic && !s.batched && !b->offset && !touched.count(b->buffer) && b->buffer != loss &&
            b->buffer != c && !(other && other->buffer == b->buffer))
          out.startsAt[k].insert(b->buffer);
      }
      bool readAfter = c == loss;
      for (size_t j = 0; j < k && !readAfter; ++j) readAfter = takes(derivatives[j], c);
      if (!readAfter) out.cBarUnread.insert(k);
    }
    for (const BufferArg* b : own)
      if (b) touched.insert(b->buffer);
  }
  return out;
}

}  // namespace adjoint::derive
