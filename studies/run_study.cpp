// The follow-ups a run file's keys ask for (studies/study.h:
// continue_run_follow_ups): which special point each key starts from, and
// what follows it; for a hybrid run, the curves of "periodic.curve".

#include <optional>

#include "studies/hybrid_run_file.h"
#include "studies/study.h"

namespace saltus::studies {

namespace {

// The n-th point of `type` on a branch, for a follow-up's key.
const SpecialPoint& nth(const Branch& branch, const std::string& type, int n, const std::string& key,
                        const std::string& field = "from", const std::string& where = "the first branch") {
  if (const SpecialPoint* s = nth_point(branch, type, n)) return *s;
  int seen = 0;
  for (const auto& s : branch.special_points) seen += s.type == type && s.status != EventStatus::kJump;
  throw RunFileError("'" + key + "." + field + "' = " + std::to_string(n) + ", but " + where + " has " +
                     std::to_string(seen) + " " + type + " point(s)");
}

// The follow-up from `point` of `from` that a run-file key asks for;
// errors the study cannot start with are the key's. A follow-up that cannot
// start is an error, as a missing LP is: the branches before it are written,
// the run exits non-zero.
BranchResult follow(const BranchResult& from, const SpecialPoint& point, FromOptions options,
                   const Progress& progress, const std::string& key) {
  BranchResult next;
  try {
    next = continue_from(from, point, options, progress);
  } catch (const std::invalid_argument& e) {  // no HB/BT there, no Hopf side, not a simple BP
    throw RunFileError(key + ": " + e.what());
  } catch (const std::runtime_error& e) {
    throw RunFileError(key + ": " + e.what());
  }
  if (!next.branch.usable()) throw RunFileError(key + ": could not start: " + next.branch.message);
  return next;
}

// The period-doubled branches of a periodic run, each from the first PD of
// the branch before.
void doublings(const RunFile& run, const Progress& progress, std::vector<BranchResult>* branches) {
  const PeriodicRun& pr = *run.periodic;
  for (int level = 1; level <= pr.doublings; ++level) {
    const BranchResult before = branches->back();  // a copy: the vector grows
    const SpecialPoint* pd = nth_point(before.branch, "PD", 1);
    if (!pd) {
      const std::string why = "periodic.period_doubling: branch '" + before.name +
                              "' has no PD point to switch at (" + std::to_string(level - 1) + " of " +
                              std::to_string(pr.doublings) + " levels done)";
      throw RunFileError(why);
    }
    branches->push_back(continue_from(before, *pd, {.to = "doubled"}, progress));
    if (!branches->back().branch.usable()) return;
  }
}

// The fold curve, the Hopf curve, the cycles and the switched branch, as
// the run file's keys ask, appended to *out.
void follow_ups(const RunFile& run, const Progress& progress, std::vector<BranchResult>* out) {
  std::vector<BranchResult>& branches = *out;
  const BranchResult first = branches.front();  // a copy: the vector grows
  std::optional<std::size_t> fold;
  if (run.fold_curve) {
    const SpecialPoint& lp = nth(first.branch, "LP", run.fold_curve->from, "fold_curve");
    branches.push_back(follow(first, lp,
                              {.parameters = run.fold_curve->parameters, .options = run.fold_curve->options},
                              progress, "fold_curve"));
    fold = branches.size() - 1;
  }
  if (const auto& f = run.hopf_curve) {
    const FromOptions options{.to = "curve", .parameters = f->parameters, .options = f->options};
    if (f->from_bt > 0) {
      if (!fold) throw RunFileError("hopf_curve.from_bt: there is no fold curve");
      const BranchResult curve = branches[*fold];
      const SpecialPoint& bt = nth(curve.branch, "BT", f->from_bt, "hopf_curve", "from_bt", "the fold curve");
      branches.push_back(follow(curve, bt, options, progress, "hopf_curve"));
    } else {
      branches.push_back(
          follow(first, nth(first.branch, "HB", f->from, "hopf_curve"), options, progress, "hopf_curve"));
    }
  }
  if (const auto& hc = run.hopf_cycles) {
    const SpecialPoint& hb = nth(first.branch, "HB", hc->from, "hopf_cycles");
    branches.push_back(follow(first, hb, {.to = "cycles", .options = hc->options, .amplitude = hc->amplitude},
                              progress, "hopf_cycles"));
  }
  if (run.switch_branch) {
    const SpecialPoint& bp = nth(first.branch, "BP", run.switch_branch->from, "switch_branch");
    branches.push_back(follow(first, bp, {.options = run.switch_branch->options}, progress, "switch_branch"));
  }
}

// The curves of "periodic.curve" of a hybrid run, each from the first
// located point of its kind on the branch.
void hybrid_curves(const PeriodicSpec& spec, const Progress& progress, std::vector<BranchResult>* branches) {
  const BranchResult branch = branches->front();  // a copy: the vector grows
  for (const CurveSpec& cs : spec.curves) {
    const SpecialPoint* from = nullptr;
    for (const auto& sp : branch.branch.special_points)
      if (!from && sp.type == cs.kind && sp.status == EventStatus::kLocated) from = &sp;
    if (!from)
      throw RunFileError("'periodic.curve': the branch has no located " + curve_kind_text(cs.kind) +
                         " to start the curve from" +
                         (cs.kind == "GR" ? "" : " (widen 'periodic.bounds' or start the branch elsewhere)"));
    BranchResult curve;
    try {
      curve = continue_from(branch, *from, {.to = "curve", .parameters = {cs.first, cs.second}, .options = cs.options},
                            progress);
    } catch (const std::exception& e) {
      throw RunFileError(std::string("'periodic.curve': ") + e.what());
    }
    if (!curve.branch.usable())
      throw RunFileError("'periodic.curve': the " + curve_kind_text(cs.kind) +
                         " curve could not start: " + curve.branch.message);
    branches->push_back(std::move(curve));
  }
}

}  // namespace

void continue_run_follow_ups(std::vector<BranchResult>* branches, const Progress& progress) {
  if (branches->empty() || (!branches->front().run && !branches->front().hybrid))
    throw StudyError("continue_run_follow_ups: give the run's first branch (continue_run or continue_orbits) first");
  if (!branches->front().branch.usable()) return;
  if (const auto& hybrid = branches->front().hybrid) {
    if (hybrid->periodic) hybrid_curves(*hybrid->periodic, progress, branches);
    return;
  }
  const RunFile& run = *branches->front().run;
  if (run.periodic)
    doublings(run, progress, branches);
  else
    follow_ups(run, progress, branches);
}

}  // namespace saltus::studies
