// One round of the grow/prune loop (tune.hpp).
#include "idb/analysis/tune.hpp"
#include "selection.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <unordered_map>

namespace idb::analysis {

namespace {

// Of the target: what a probe must cost of the run before its own share counts.
constexpr double kNegligible = 0.01;

std::vector<std::string> split_tabs(const std::string &line) {
  std::vector<std::string> fields;
  std::size_t from = 0;
  for (;;) {
    std::size_t tab = line.find('\t', from);
    fields.push_back(line.substr(from, tab == std::string::npos ? std::string::npos : tab - from));
    if (tab == std::string::npos) return fields;
    from = tab + 1;
  }
}

bool parse_number(const std::string &text, long long low, long long high, long long &value) {
  if (text.empty()) return false;
  char *end = nullptr;
  errno = 0;
  value = std::strtoll(text.c_str(), &end, 10);
  return *end == '\0' && errno == 0 && value >= low && value <= high;
}

std::string percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * share);
  return text;
}

// The candidates by ID, and where each function's PROC is.
class Index {
public:
  explicit Index(const std::vector<TuneCandidate> &candidates) : all_(candidates) {
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const TuneCandidate &c = candidates[i];
      by_id_.emplace(c.id, i);
      if (c.kind == "PROC") {
        procs_by_name_[c.function].push_back(i);
        proc_of_[c.file + '\n' + c.function] = i;
      }
    }
  }

  const TuneCandidate *find(std::int32_t id) const {
    auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : &all_[it->second];
  }

  // The PROC candidate of the function a candidate is in.
  const TuneCandidate *proc_of(const TuneCandidate &c) const {
    auto it = proc_of_.find(c.file + '\n' + c.function);
    return it == proc_of_.end() ? nullptr : &all_[it->second];
  }

  // The PROC candidates of functions named `name`, in any file.
  std::vector<const TuneCandidate *> procs_named(const std::string &name) const {
    std::vector<const TuneCandidate *> out;
    if (auto it = procs_by_name_.find(name); it != procs_by_name_.end())
      for (std::size_t i : it->second)
        out.push_back(&all_[i]);
    return out;
  }

  const std::vector<TuneCandidate> &all() const { return all_; }

private:
  const std::vector<TuneCandidate> &all_;
  std::unordered_map<std::int32_t, std::size_t> by_id_;
  std::map<std::string, std::vector<std::size_t>> procs_by_name_;
  std::map<std::string, std::size_t> proc_of_;
};

// A probe that stays in the next round: placed, and not to be pruned.
bool stays(const TuneCandidate *c, const std::set<std::int32_t> &pruning) {
  return c && c->placed() && !pruning.count(c->id);
}

// A loop that can hold no probe: the selection chose it and the instrumenter could not place
// it, or the loop gave up on it.
bool closed(const TuneCandidate &loop, const TuneState &state) {
  return loop.status.rfind("skipped", 0) == 0 || state.pruned.count(loop.id) ||
         state.failed.count(loop.id);
}

// The node a candidate's time lands in when it has no probe: its nearest enclosing loop
// that keeps its probe, else its function's PROC. 0 when that is none of these, or when a
// loop in between could still take a probe (that loop is grown first: one level a round).
std::int32_t owner(const TuneCandidate &c, const Index &index, const TuneState &state,
                   const std::set<std::int32_t> &pruning) {
  for (std::int32_t p = c.parent; p != 0;) {
    const TuneCandidate *loop = index.find(p);
    if (!loop) return 0;
    if (stays(loop, pruning)) return loop->id;
    if (!closed(*loop, state)) return 0;
    p = loop->parent;
  }
  const TuneCandidate *proc = index.proc_of(c);
  return stays(proc, pruning) ? proc->id : 0;
}

// Whether a probe around `c` pays for itself inside a loop: it holds an open-ended loop or
// weighs at least kSubstantial (an unknown size, a library's function, does not; nor a
// loop of a constant trip count, size `short W`: its work is set by its text).
bool substantial(const TuneCandidate &c) {
  if (c.size == "loop") return true;
  long long weight = 0;
  return parse_number(c.size, 0, 1LL << 40, weight) && weight >= kSubstantial;
}

bool is_main(const TuneCandidate *c) {
  return c && c->kind == "PROC" && c->function == "main";
}

// Why the build skipped a candidate; "" when it placed it or did not select it.
std::string skip_reason(const TuneCandidate &c) {
  const std::string skipped = "skipped: ";
  return c.status.rfind(skipped, 0) == 0 ? c.status.substr(skipped.size()) : std::string();
}

// Whether an include rule naming the candidate's ID can place it: it was not selected, or
// only the size rule left it out, bounded functions included (an ID rule skips that rule;
// docs/instrumenter.md). A candidate skipped for any other reason (a constexpr function, a
// header that cannot be replaced by its instrumented copy, ...) cannot hold a probe.
bool placeable(const TuneCandidate &c) {
  return c.status == "-" || instr::skipped_by_size_rule(skip_reason(c));
}

// Whether a candidate may be grown at all: not tried and given up, not COMM (the default
// has every MPI call; `set comm off` is the user's word), not a loop left to its PROC as
// the function's whole work (it would measure what the PROC does; what it holds is grown
// instead: it is closed, so its contents count as the PROC's).
bool growable(const TuneCandidate &c, const TuneState &state) {
  return !c.placed() && placeable(c) && !instr::skipped_as_whole_work(skip_reason(c)) &&
         c.kind != "COMM" && !state.pruned.count(c.id) && !state.failed.count(c.id);
}

std::vector<TuneChange> whole_work_loops(const TuneCandidate &proc, const Index &index) {
  std::vector<TuneChange> out;
  if (proc.kind != "PROC") return out;
  for (const TuneCandidate &c : index.all())
    if (c.kind == "LOOP" && c.file == proc.file && c.function == proc.function &&
        instr::skipped_as_whole_work(skip_reason(c)))
      out.push_back({c.id, c.kind, c.description,
                     "its function's whole work: it goes with " + proc.description});
  return out;
}

} // namespace

CandidatesResult parse_candidates(const std::string &text, const std::string &name) {
  CandidatesResult out;
  std::unordered_map<std::int32_t, std::size_t> seen;
  std::istringstream in(text);
  std::string line;
  for (unsigned line_no = 1; std::getline(in, line); ++line_no) {
    if (line.empty()) continue;
    std::vector<std::string> f = split_tabs(line);
    auto fail = [&](const std::string &what) {
      out.error = name;
      out.error += ":" + std::to_string(line_no) + ": ";
      out.error += what;
      out.candidates.clear();
      return out;
    };
    if (f.size() != 11)
      return fail("expected 11 tab-separated fields, found " + std::to_string(f.size()));
    TuneCandidate c;
    long long id = 0, line_of = 0, depth = 0, parent = 0;
    if (!parse_number(f[0], 1, 0x7fffffff, id)) return fail("bad probe ID '" + f[0] + "'");
    if (f[1] != "PROC" && f[1] != "LOOP" && f[1] != "CALL" && f[1] != "COMM")
      return fail("unknown kind '" + f[1] + "'");
    if (!parse_number(f[4], 0, 0xffffffff, line_of)) return fail("bad line '" + f[4] + "'");
    if (!parse_number(f[7], 0, 1 << 20, depth)) return fail("bad depth '" + f[7] + "'");
    if (!parse_number(f[8], 0, 0x7fffffff, parent)) return fail("bad parent '" + f[8] + "'");
    c.id = std::int32_t(id);
    c.kind = f[1];
    c.status = f[2];
    c.file = f[3];
    c.line = unsigned(line_of);
    c.function = f[5];
    c.callee = f[6];
    c.depth = int(depth);
    c.parent = std::int32_t(parent);
    c.size = f[9] == "-" ? "" : f[9];
    c.description = f[10];
    // A source compiled twice (two targets, say) records its candidates twice: one entry,
    // placed when any build placed it.
    if (auto it = seen.find(c.id); it != seen.end()) {
      if (c.placed()) out.candidates[it->second].status = c.status;
      continue;
    }
    seen.emplace(c.id, out.candidates.size());
    out.candidates.push_back(std::move(c));
  }
  return out;
}

TuneStep tune_step(const Score &score, const std::vector<TuneCandidate> &candidates,
                   const TuneState &state, const TuneOptions &options) {
  Index index(candidates);
  TuneStep step;
  double bare = score.run_time - score.noise;
  if (options.measured >= 0 && score.run_time > 0)
    bare = std::clamp(score.run_time / (1 + options.measured), bare, score.run_time);
  step.estimated = score.dilation;

  // Prune what costs more than the target of its own time, and what the runtime throttled.
  std::set<std::int32_t> pruning;
  double pruned_noise = 0;
  for (const ProbeScore &p : score.probes) {
    const TuneCandidate *c = index.find(p.probe);
    if (!c || is_main(c) || p.verdict == Verdict::keep) continue;
    // A probe too rare to matter keeps its place, whatever its share of its own time.
    if (p.verdict == Verdict::prune && p.run_share < kNegligible * options.target) continue;
    std::string why = p.verdict == Verdict::throttled
                          ? "throttled: " + std::to_string(p.throttled) + " of " +
                                std::to_string(p.activations) + " activations untimed"
                          : "costs " + percent(p.cost_share) + " of its own time";
    step.prune.push_back({p.probe, c->kind, p.label, why});
    pruning.insert(p.probe);
    pruned_noise += p.noise;
    for (TuneChange &loop : whole_work_loops(*c, index))
      if (pruning.insert(loop.probe).second) step.prune.push_back(std::move(loop));
  }
  // Each probe within the target can still add up to more over the run (nested probes
  // share their time): the dearest for what they measure (largest share of their own time)
  // go until the estimate is under the target. Ordered by their total cost instead, the
  // first to go were the long, hot kernels that carry most of the run's time for a small
  // share of it (Quicksilver's CollisionEvent: 1.7% of its own time, 1% of the run), and
  // the selection left nearly all of the run as one function's own time.
  std::vector<const ProbeScore *> dearest;
  for (const ProbeScore &p : score.probes)
    dearest.push_back(&p);
  std::stable_sort(dearest.begin(), dearest.end(), [](const ProbeScore *a, const ProbeScore *b) {
    return a->cost_share > b->cost_share;
  });
  for (const ProbeScore *each : dearest) {
    const ProbeScore &p = *each;
    if (bare <= 0 || (score.noise - pruned_noise) / bare <= options.target) break;
    const TuneCandidate *c = index.find(p.probe);
    if (!c || is_main(c) || pruning.count(p.probe)) continue;
    if (p.run_share < kNegligible * options.target) continue; // its going would not tell
    step.prune.push_back(
        {p.probe, c->kind, p.label, "costs " + percent(p.run_share) + " of the run"});
    pruning.insert(p.probe);
    pruned_noise += p.noise;
    for (TuneChange &loop : whole_work_loops(*c, index))
      if (pruning.insert(loop.probe).second) step.prune.push_back(std::move(loop));
  }
  step.estimated_after = bare > 0 ? (score.noise - pruned_noise) / bare : 0.0;

  for (const ProbeScore &p : score.probes)
    step.hot.push_back({p.probe, p.label, score.run_time > 0 ? p.exclusive / score.run_time : 0.0});
  std::stable_sort(step.hot.begin(), step.hot.end(),
                   [](const HotNode &a, const HotNode &b) { return a.share > b.share; });

  // Grow into the nodes that hold much of the run as their own time: the loops and calls
  // directly inside them, a called function's PROC where it has one.
  std::set<std::int32_t> growing;
  auto grow = [&](const TuneCandidate &c, const std::string &why) {
    if (growing.insert(c.id).second) step.grow.push_back({c.id, c.kind, c.description, why});
  };
  for (const HotNode &h : step.hot) {
    if (h.share < options.grow) break;
    const TuneCandidate *node = index.find(h.probe);
    if (!node || !stays(node, pruning)) continue;
    std::string why =
        "inside " + node->description + " (" + percent(h.share) + " of the run its own)";
    for (const TuneCandidate &c : index.all()) {
      if (c.file != node->file || c.function != node->function || c.kind == "PROC") continue;
      if (!growable(c, state) || owner(c, index, state, pruning) != node->id) continue;
      bool in_loop = c.parent != 0;
      std::vector<const TuneCandidate *> procs = index.procs_named(c.callee);
      // A callee the bounded rule left out is short: in a loop its probe, or one around its
      // call, would be pruned the round after (its loop's time stays the loop's own).
      if (in_loop && std::any_of(procs.begin(), procs.end(), [](const TuneCandidate *p) {
            return instr::skipped_as_bounded(skip_reason(*p));
          }))
        continue;
      // A PROC that can never hold a probe is as good as none: the call site's probe measures.
      procs.erase(
          std::remove_if(procs.begin(), procs.end(),
                         [](const TuneCandidate *p) { return !p->placed() && !placeable(*p); }),
          procs.end());
      // A callee of the sources that holds enough gets its PROC. A small one gets a CALL
      // probe at this site only: its PROC would fire at every call, in loops elsewhere too.
      bool placed_proc = false, any_growable = false;
      for (const TuneCandidate *proc : procs) {
        placed_proc = placed_proc || proc->placed();
        if (!growable(*proc, state)) continue;
        any_growable = true;
        if (substantial(*proc)) grow(*proc, "called " + why);
      }
      if (placed_proc || (!procs.empty() && !any_growable)) continue; // measured, or given up
      bool substantial_callee = false;
      for (const TuneCandidate *proc : procs)
        substantial_callee = substantial_callee || substantial(*proc);
      if (substantial_callee) continue; // its PROC grows
      if (!in_loop || substantial(c)) grow(c, why);
    }
  }
  return step;
}

std::vector<TuneChange> whole_work_loops(std::int32_t proc,
                                         const std::vector<TuneCandidate> &candidates) {
  Index index(candidates);
  const TuneCandidate *c = index.find(proc);
  return c ? whole_work_loops(*c, index) : std::vector<TuneChange>{};
}

std::optional<TuneChange> presence_suspect(const Score &score,
                                           const std::vector<TuneCandidate> &candidates,
                                           const std::set<std::int32_t> &tried, double grow) {
  Index index(candidates);
  auto telling = [&](const ProbeScore &p) {
    return score.run_time > 0 && p.exclusive / score.run_time >= grow;
  };
  const ProbeScore *best = nullptr;
  for (const ProbeScore &p : score.probes) { // by noise, largest first: ties keep the costlier
    const TuneCandidate *c = index.find(p.probe);
    if (!c || !c->placed() || is_main(c) || tried.count(p.probe)) continue;
    if (p.activations < kPresenceActivations) continue;
    // A probe that tells less comes first; among the same, the one that runs most often.
    if (!best || (telling(*best) && !telling(p)) ||
        (telling(*best) == telling(p) && p.activations > best->activations))
      best = &p;
  }
  if (!best) return std::nullopt;
  return TuneChange{best->probe, index.find(best->probe)->kind, best->label,
                    std::to_string(best->activations) + " activations, estimated at " +
                        percent(best->run_share) + " of the run"};
}

} // namespace idb::analysis
