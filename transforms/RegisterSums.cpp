#include "transforms/RegisterSums.h"

#include <algorithm>

#include "ad/analysis/Activity.h"
#include "ad/ir/Names.h"
#include "ad/ir/Naming.h"
#include "ad/ir/Printer.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

bool isIncrement(const Stmt& s) {
  return s.kind == StmtKind::Assign && (s.op == Op::Add || s.op == Op::Sub) && !s.atomic &&
         s.lhs->kind == ExprKind::Index && s.lhs->operands[0]->kind == ExprKind::Var &&
         naming::isAdjoint(s.lhs->operands[0]->text);
}

class RegisterSums {
 public:
  explicit RegisterSums(const Function& f) : names_(f) {}

  void run(StmtList& list) {
    for (size_t k = 0; k < list.size(); ++k) {
      StmtPtr s = list[k];
      if (isLoop(s->kind)) {
        auto [before, after] = sum(*s);
        list.insert(list.begin() + static_cast<long>(k) + 1, after.begin(), after.end());
        list.insert(list.begin() + static_cast<long>(k), before.begin(), before.end());
        k += before.size() + after.size();
      }
      run(s->body);
      run(s->elseBody);
    }
  }

 private:
  NameSet names_;

  struct Element {
    ExprPtr place;  // pos_bar[3 * i]
    ExprPtr sum;    // the local that sums what the loop adds to it
  };

  // The declarations of the sums before the loop and their additions after it.
  std::pair<StmtList, StmtList> sum(Stmt& loop) {
    bool returns = false;
    walk(loop.body, [&](const Stmt& s) { returns |= s.kind == StmtKind::Return; });
    if (returns) return {};  // the addition after the loop would be skipped
    std::set<std::string> changed = analysis::writtenVariables({std::make_shared<Stmt>(loop)});
    std::map<std::string, int> increments;  // per adjoint array: how many statements add to it
    std::vector<Stmt*> candidates;
    walk(loop.body, [&](Stmt& s) {
      if (!isIncrement(s)) return;
      const std::string& array = s.lhs->operands[0]->text;
      ++increments[array];
      const ExprPtr& at = s.lhs->operands[1];
      if (analysis::unchangedBy(at, changed) && !reads(s.expr, array)) candidates.push_back(&s);
    });
    // Everything else the loop does with such an array is an addition too: no read, no store.
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                    [&](const Stmt* s) {
                                      const std::string& array = s->lhs->operands[0]->text;
                                      return mentions(loop, array) != increments[array];
                                    }),
                     candidates.end());
    std::vector<Element> elements;
    for (Stmt* s : candidates) {
      const std::string& array = s->lhs->operands[0]->text;
      auto same =
          std::find_if(elements.begin(), elements.end(), [&](const Element& e) { return sameExpr(*e.place, *s->lhs); });
      if (same == elements.end()) {
        Type t = s->lhs->type;
        elements.push_back({s->lhs, var(names_.fresh(array + "_sum"), t)});
        same = elements.end() - 1;
      }
      s->lhs = same->sum;
    }
    StmtList before, after;
    for (const Element& e : elements) {
      Type t = e.sum->type;
      t.constant = false;
      before.push_back(
          withComment(decl(e.sum->text, t, number(0, t)), "what the loop below adds to " + print(*e.place)));
      after.push_back(assign(e.place, Op::Add, e.sum));
    }
    return {before, after};
  }
};

}  // namespace

void sumInRegisters(Function& f) {
  // A local pointer may alias an adjoint element under another name: left alone.
  bool pointerLocals = false;
  walk(f.body, [&](const Stmt& s) { pointerLocals |= s.kind == StmtKind::Decl && s.type.pointer; });
  if (!f.kernel && !f.device && !pointerLocals) RegisterSums(f).run(f.body);
}

}  // namespace adjoint::transforms
