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

}  // namespace

AdjointStarts planAdjointStarts(const std::vector<Step>& steps,
                                const std::vector<std::vector<const BufferArg*>>& derivatives,
                                const std::string& loss) {
  AdjointStarts out;
  std::set<std::string> touched;  // by the pullbacks run so far
  for (size_t k = steps.size(); k-- > 0;) {
    const std::vector<const BufferArg*>& own = derivatives[k];
    if (own.empty()) continue;
    const Step& s = steps[k];
    // A GEMM's derivatives are those of A, B and C, in order. In a loop, an earlier iteration's
    // pullback runs after this one, and under an if the pullback may not run: neither holds there. The adjoints of a
    // batch's operands are added to batch by batch: they start zeroed.
    if (s.kind == StepKind::Gemm && s.loop < 0 && !s.condition) {
      const std::string& c = s.buffers[2].buffer;
      for (size_t operand : {0, 1}) {
        const BufferArg* b = own[operand];
        const BufferArg* other = own[1 - operand];
        if (b && !s.batched && !b->offset && !touched.count(b->buffer) && b->buffer != loss && b->buffer != c &&
            !(other && other->buffer == b->buffer))
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
