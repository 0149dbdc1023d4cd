#include "ad/derive/HostVersions.h"

#include <algorithm>
#include <map>

#include "ad/ir/Naming.h"

namespace adjoint::derive {

using namespace ir;

namespace {

class VersionPlanner {
 public:
  VersionPlanner(std::vector<Step>& steps, const std::vector<HostLoop>& loops, const Function& f, bool reverse,
                 bool train, NameSet& names)
      : steps_(steps), loops_(loops), f_(f), reverse_(reverse), train_(train), names_(names) {}

  VersionPlan plan() && {
    run();
    return std::move(plan_);
  }

 private:
  std::vector<Step>& steps_;
  const std::vector<HostLoop>& loops_;
  const Function& f_;
  bool reverse_, train_;
  NameSet& names_;
  VersionPlan plan_;

  void run() {
    if (train_)
      for (const Param& p : f_.params)
        if (p.type.pointer && !savedInLoop(p.name)) plan_.inPlace.insert(p.name);
    std::map<std::string, std::string> current;
    std::set<std::string> needed;  // versions a pullback reads
    for (const Param& p : f_.params) current[p.name] = p.name;
    for (size_t k = 0; k < steps_.size();) {
      bool inLoop = steps_[k].loop >= 0;
      size_t end = inLoop ? loops_[steps_[k].loop].end : k + 1;
      std::map<std::string, std::string> entry = current;
      std::set<std::string> kept;  // buffers written in place whose value before step k was copied out
      for (size_t j = k; j < end; ++j)
        for (const BufferArg& b : steps_[j].buffers) {
          const std::string& now = current[b.buffer];
          if (!b.writes || now != entry[b.buffer] || kept.count(b.buffer)) continue;  // not written, or done
          bool read = reverse_ && (needed.count(now) || (!inLoop && steps_[j].reads(b.buffer)));
          // A pullback reading the buffer as its step leaves it, where no earlier one reads what it
          // held before: nothing to copy out (what it leaves is kept if a later step overwrites it).
          std::string& asLeft = steps_[j].readsAsLeft;
          if (asLeft == b.buffer && (!plan_.inPlace.count(b.buffer) || inLoop || needed.count(now))) asLeft.clear();
          if (plan_.inPlace.count(b.buffer)) {
            if (read && asLeft != b.buffer) keepBefore(k, b.buffer, entry, needed);
            kept.insert(b.buffer);
            continue;
          }
          if (now != b.buffer && !read) continue;
          std::string name = names_.fresh(b.buffer + "_" + std::to_string(versionsOf(b.buffer) + 1));
          plan_.versions.push_back({name, b.buffer, k, now});
          current[b.buffer] = name;
        }
      for (size_t j = k; j < end; ++j) {
        Step& s = steps_[j];
        s.before = inLoop ? current : entry;
        for (const auto& [buffer, version] : current)
          if (!inLoop && version != entry[buffer]) s.after[buffer] = version;
        for (const BufferArg& b : s.buffers)
          if (b.reads) needed.insert(s.before[b.buffer]);
      }
      k = end;
    }
    if (reverse_) planSaves();
  }

  size_t versionsOf(const std::string& buffer) const {
    return std::count_if(plan_.versions.begin(), plan_.versions.end(),
                         [&](const Version& v) { return v.buffer == buffer; });
  }

  // A buffer written in place: what it holds before step k, which pullbacks read, copied out
  // before the step; the pullbacks (of the steps before, `entry`'s and step k's) read the copy.
  void keepBefore(size_t k, const std::string& buffer, std::map<std::string, std::string>& entry,
                  std::set<std::string>& needed) {
    std::string name = names_.fresh(buffer + "_" + std::to_string(versionsOf(buffer) + 1));
    plan_.versions.push_back({name, buffer, k, buffer});
    auto rename = [&](std::map<std::string, std::string>& versions) {
      auto it = versions.find(buffer);
      if (it != versions.end() && it->second == buffer) it->second = name;
    };
    for (size_t j = 0; j < k; ++j) rename(steps_[j].before);
    rename(entry);
    if (needed.erase(buffer)) needed.insert(name);
  }

  // Whether a step of a loop writes `buffer` and a step of the loop reads it (planSaves).
  bool savedInLoop(const std::string& buffer) const {
    for (const HostLoop& loop : loops_) {
      auto first = steps_.begin() + static_cast<long>(loop.begin), last = steps_.begin() + static_cast<long>(loop.end);
      if (std::any_of(first, last, [&](const Step& s) { return s.writes(buffer); }) &&
          std::any_of(first, last, [&](const Step& s) { return s.reads(buffer); }))
        return true;
    }
    return false;
  }

  // In a loop, a step that writes a buffer which a step of the loop reads saves what it
  // overwrites, per iteration: the pullbacks, which run backwards, put it back before their own.
  void planSaves() {
    for (const HostLoop& loop : loops_)
      for (size_t j = loop.begin; j < loop.end; ++j)
        for (const BufferArg& b : steps_[j].buffers) {
          if (!b.writes || !savedInLoop(b.buffer)) continue;
          std::string tape = names_.fresh(naming::savedBefore(b.buffer, steps_[j].stmt->loc.line));
          plan_.saves.push_back({j, &b, tape, names_.fresh(tape + "_count")});
        }
  }
};

}  // namespace

VersionPlan planVersions(std::vector<Step>& steps, const std::vector<HostLoop>& loops, const Function& f, bool reverse,
                         bool train, NameSet& names) {
  return VersionPlanner(steps, loops, f, reverse, train, names).plan();
}

}  // namespace adjoint::derive
