#include "transforms/TapeScratch.h"

#include <map>

#include "ad/analysis/Activity.h"
#include "ad/analysis/RunSlots.h"
#include "ad/ir/Diagnostic.h"
#include "ad/ir/Names.h"
#include "ad/ir/Printer.h"
#include "ad/ir/Rewriter.h"

namespace adjoint::transforms {

namespace {

using namespace ir;

// The tapes a function declares (removed from the body), by name with their element types.
std::map<std::string, Type> takeTapes(StmtList& body) {
  std::map<std::string, Type> tapes;
  for (size_t k = 0; k < body.size();) {
    const Stmt& s = *body[k];
    if (s.kind == StmtKind::Decl && s.type.tape) {
      tapes[s.name] = s.type.element();
      body.erase(body.begin() + static_cast<long>(k));
    } else {
      ++k;
    }
  }
  return tapes;
}

// Tapes whose pushes store the same value in the same run. The value of a local copied from
// another (`float maxval_prev = maxval;`, an online softmax's) is pushed beside the other's own: the
// later push is dropped and its reads read the earlier tape's slot, which holds the same value.
// Only tapes pushed at one place each: a tape pushed elsewhere too (a loop's variable also taped
// before the loop) keeps values the other never holds.
class EqualTapes {
 public:
  explicit EqualTapes(std::map<std::string, Type>& tapes) : tapes_(tapes) {}

  void merge(StmtList& body) {
    walk(body, [&](const Stmt& s) {
      if (s.kind == StmtKind::Push) ++pushes_[s.lhs->text];
    });
    scan(body);
    if (merged_.empty()) return;
    std::map<std::string, ExprPtr> into;
    for (const auto& [later, earlier] : merged_) {
      into[later] = var(earlier, Type::tapeOf(tapes_.at(earlier)));
      tapes_.erase(later);
    }
    substitute(body, into);
    readOnce(body);
  }

 private:
  std::map<std::string, Type>& tapes_;
  std::map<std::string, std::string> merged_;  // a tape merged into another -> that other
  std::map<std::string, int> pushes_;          // a tape -> the statements that push to it

  // One statement list: `copies` maps a local to the one it holds a copy of, `pushed` a value to
  // the tape that keeps it, both forgotten where either side is assigned.
  void scan(StmtList& list) {
    std::map<std::string, std::string> copies;
    std::map<std::string, std::string> pushed;
    auto source = [&](const std::string& name) {
      auto c = copies.find(name);
      return c == copies.end() ? name : c->second;
    };
    for (size_t k = 0; k < list.size();) {
      Stmt& s = *list[k];
      if (s.kind == StmtKind::Push && s.expr->kind == ExprKind::Var && tapes_.count(s.lhs->text)) {
        const std::string& tape = s.lhs->text;
        auto [keeper, fresh] = pushed.emplace(source(s.expr->text), tape);
        bool once = pushes_[tape] == 1 && pushes_[keeper->second] == 1;
        if (!fresh && once && tapes_.at(keeper->second) == tapes_.at(tape)) {
          merged_[tape] = keeper->second;
          list.erase(list.begin() + static_cast<long>(k));
          continue;
        }
        ++k;
        continue;
      }
      for (const std::string& name : analysis::assignedVariables(s)) forget(name, copies, pushed);
      if (const Expr* from = copiedFrom(s))
        copies[s.kind == StmtKind::Decl ? s.name : s.lhs->text] = source(from->text);
      for (StmtList* nested : {&s.body, &s.elseBody}) scan(*nested);
      ++k;
    }
  }

  static void forget(const std::string& name, std::map<std::string, std::string>& copies,
                     std::map<std::string, std::string>& pushed) {
    for (auto c = copies.begin(); c != copies.end();) c = c->first == name || c->second == name ? copies.erase(c) : ++c;
    pushed.erase(name);
  }

  // The local that `s` copies into another of the same type unchanged (T a = b; or a = b;).
  static const Expr* copiedFrom(const Stmt& s) {
    const bool declared = s.kind == StmtKind::Decl && s.expr && !s.type.isIndexed();
    const bool assigned = s.kind == StmtKind::Assign && s.op == Op::Assign && s.lhs->kind == ExprKind::Var;
    if (!(declared || assigned) || s.expr->kind != ExprKind::Var) return nullptr;
    const Type& target = declared ? s.type : s.lhs->type;
    return target == s.expr->type ? s.expr.get() : nullptr;
  }

  // A read of a tape's slot that a local of the same list already holds (unchanged since) reads
  // that local: the reads of merged tapes were apart where the tapes were two.
  static void readOnce(StmtList& list) {
    std::map<std::string, std::string> readInto;  // tape -> the local holding this run's slot
    for (StmtPtr& s : list) {
      const Expr* read = s->expr && s->expr->kind == ExprKind::Pop ? s->expr.get() : nullptr;
      const std::string tape = read ? read->operands[0]->text : "";
      auto held = readInto.find(tape);
      if (read && s->kind == StmtKind::Assign && s->op == Op::Assign && held != readInto.end())
        s->expr = var(held->second, s->lhs->type);
      for (const std::string& name : analysis::assignedVariables(*s))
        for (auto r = readInto.begin(); r != readInto.end();) r = r->second == name ? readInto.erase(r) : ++r;
      if (read && s->kind == StmtKind::Decl && s->type.constant) readInto[tape] = s->name;
      for (StmtList* nested : {&s->body, &s->elseBody}) readOnce(*nested);
    }
  }
};

class Scratch : public Rewriter {
 public:
  Scratch(Function& d, std::map<std::string, Type> tapes)
      : d_(d), tapes_(std::move(tapes)), threads_(d), runs_(d, threads_), names_(d) {
    for (const auto& [tape, element] : tapes_) names_.insert(tape);  // declared no more: takeTapes removed them
  }

  void run() {
    rewrite(d_.body);
    for (const auto& [tape, element] : tapes_) {
      auto sites = sites_.find(tape);
      if (sites == sites_.end()) throw InternalError("a kernel's tape '" + tape + "' that nothing pushes to");
      for (const auto& [runs, site] : sites->second) {
        d_.params.push_back(Param{site.array, element.pointerTo(false), Role::TapeScratch});
        d_.tapeScratch.push_back({site.array, site.perThread});
      }
    }
  }

 private:
  Function& d_;
  std::map<std::string, Type> tapes_;
  analysis::ThreadIndexing threads_;
  analysis::RunSlots runs_;  // made before the rewriting
  NameSet names_;
  // Where a tape is pushed, by the runs per thread there: a tape pushed in loops of different
  // runs (a loop's variable taped in the loop and before it) keeps each place's values in an
  // array of its own, which the pops with the same runs read.
  struct Site {
    std::string array;
    ExprPtr perThread;
  };
  std::map<std::string, std::map<std::string, Site>> sites_;

  void enter(Stmt& s) override {
    if (s.kind == StmtKind::Push) return store(s);
    for (ExprPtr* e : {&s.lhs, &s.expr}) *e = readBack(*e, s);
    for (ExprPtr& a : s.args) a = readBack(a, s);
  }

  analysis::RunSlot slotOf(const Stmt& s, const std::string& tape) const {
    std::optional<analysis::RunSlot> run = runs_.of(s);
    if (!run)
      throw Diagnostic(
          d_.loc,
          "the reverse of '" + d_.primal + "' would record values on a tape ('" + tape +
              "') in a loop whose runs cannot be counted before the launch",
          "kernels keep such values in global scratch, a slot per run, in counted loops whose bounds are "
          "literals, the kernel's scalar parameters or blockDim.x; or declare a new local instead of reassigning one");
    return *run;
  }

  // tape.push_back(v) as tape[slot] = v.
  void store(Stmt& s) {
    const std::string tape = s.lhs->text;
    analysis::RunSlot run = slotOf(s, tape);
    std::map<std::string, Site>& sites = sites_[tape];
    auto [site, fresh] =
        sites.emplace(print(*run.perThread), Site{sites.empty() ? tape : names_.fresh(tape), run.perThread});
    if (!fresh) throw InternalError("a kernel's tape '" + tape + "' pushed at two places with the same runs");
    SourceLoc loc = s.loc;
    std::string comment = s.comment;
    s = *assign(index(var(site->second.array, tapes_.at(tape).pointerTo(false)), run.slot), Op::Assign, s.expr);
    s.loc = loc;
    s.comment = comment;
  }

  // Pops and tops of the tapes in e as reads of the slot of the run of `s`, which must count the
  // runs as the push does.
  ExprPtr readBack(const ExprPtr& e, const Stmt& s) {
    if (!e) return e;
    if ((e->kind == ExprKind::Pop || e->kind == ExprKind::Top) && tapes_.count(e->operands[0]->text)) {
      const std::string& tape = e->operands[0]->text;
      analysis::RunSlot run = slotOf(s, tape);
      auto site = sites_[tape].find(print(*run.perThread));
      if (site == sites_[tape].end())
        throw InternalError("the reverse of a kernel reads its tape '" + tape + "' where no push has its runs (" +
                            print(*run.perThread) + ")");
      return index(var(site->second.array, tapes_.at(tape).pointerTo(false)), run.slot);
    }
    if (e->operands.empty()) return e;
    auto copy = std::make_shared<Expr>(*e);
    for (ExprPtr& op : copy->operands) op = readBack(op, s);
    return copy;
  }
};

}  // namespace

void tapesInScratch(Function& kernel) {
  std::map<std::string, Type> tapes = takeTapes(kernel.body);
  if (tapes.empty()) return;
  EqualTapes(tapes).merge(kernel.body);
  Scratch(kernel, std::move(tapes)).run();
}

}  // namespace adjoint::transforms
