#include "studies/hybrid_study.h"

#include <algorithm>
#include <cmath>

#include "analyses/sliding/sliding_bifurcation.h"
#include "models/filippov_hybrid.h"

#include "studies/detail.h"
#include "studies/periodic_orbit.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"
#include "testfunctions/grazing.h"

namespace saltus::studies {

std::shared_ptr<const HybridRun> load_hybrid(const std::filesystem::path& path) {
  return std::make_shared<const HybridRun>(read_hybrid_run(path));
}

std::shared_ptr<const HybridRun> load_hybrid_description(const Json& description, const std::string& where) {
  return std::make_shared<const HybridRun>(parse_hybrid_run(description, where));
}

flow::Trajectory simulate(const HybridRun& run, bool transition_matrix) {
  int mode = run.mode;
  Vector x0 = run.initial;
  if (run.transient > 0) {
    flow::Trajectory warm =
        flow::simulate(*run.system, mode, run.t0 - run.transient, x0, run.t0, without_samples(run.simulation));
    if (!warm.ok()) {
      warm.message = "during the transient: " + warm.message;
      return warm;
    }
    mode = warm.mode_end;
    x0 = warm.x_end;
  }
  flow::SimulationOptions options = run.simulation;
  options.variational = transition_matrix;
  return flow::simulate(*run.system, mode, run.t0, x0, run.t1, options, {}, run.sections());
}

flow::LyapunovResult lyapunov(const HybridRun& run) {
  return flow::lyapunov_spectrum(*run.system, run.mode, run.t0, run.initial, run.lyapunov);
}

namespace {

// On a branch of Filippov orbits: each grazing (GR) that is a grazing- or
// adding-sliding relabelled GS or AS (the quantities that tell it in its
// data, "sliding"), and the sides of every sliding bifurcation described.
// A GR whose point is the zero of the CS test is that CS (or SS), seen
// first by the grazing test: the F+ orbit leaving the crossing x_c is
// tangent to Sigma there (H+(x_c) = 0, the bifurcation's condition (S1)),
// and when that slip lands back in the sliding region later in the period,
// sliding_event_count changes at the CS itself (a crossing followed by a
// landing becomes a slide start followed by another). The test: phi_CS at
// the point is below 1e-6 of its value at the branch point before
// (scale-free: the GR was located by bisection in s to ~1e-10, so phi_CS is
// ~1e-10 of its one-step change there, while a grazing elsewhere on the
// orbit leaves phi_CS at its size). Returns "CS" or "SS" (by the drift
// (S2) at the arrival), with the arrival in `why`; else "".
std::string crossing_sliding_at_grazing(const BranchResult& r, const SpecialPoint& sp, const Vector& u,
                                        nlohmann::ordered_json* why) {
  const auto& names = r.branch.test_names;
  const auto it = std::find(names.begin(), names.end(), "CS");
  if (it == names.end() || sp.index < 1) return "";
  const std::size_t k = static_cast<std::size_t>(it - names.begin());
  const auto& here = r.branch.points[sp.index].tests;
  const auto& before = r.branch.points[sp.index - 1].tests;
  if (k >= here.size() || k >= before.size() || !(std::abs(here[k]) <= 1e-6 * std::abs(before[k]))) return "";
  const periodic::ShootingSystem& shooting = *shooting_at(r, sp.y);
  const auto tr = shooting.trajectory(u);
  const auto list = sliding::arrivals(*shooting.hybrid(), *tr);
  const auto a = std::min_element(list.begin(), list.end(), [](const auto& p, const auto& q) {
    return std::abs(p.margin) < std::abs(q.margin);
  });
  if (a == list.end()) return "";
  (*why)["margin"] = a->margin;  // phi_CS at the point
  (*why)["margin_before"] = before[k];
  (*why)["drift"] = a->drift;  // delta: > 0 visible fold (CS), < 0 invisible (SS)
  return a->drift > 0 ? "CS" : "SS";
}

void classify_sliding(BranchResult* r) {
  for (SpecialPoint& sp : r->branch.special_points) {
    if (sp.type != "GR" || sp.index < 0) continue;
    nlohmann::ordered_json why;
    const Vector u = r->problem->u(sp.y);
    std::string type = "GR";
    try {
      type = sliding::grazing_type(*shooting_at(*r, sp.y), u, &why);
      if (type == "GR") {
        if (const std::string cs = crossing_sliding_at_grazing(*r, sp, u, &why); !cs.empty()) {
          type = cs;
          sp.status = EventStatus::kLocated;  // where phi_CS vanishes, to the GR's bracket
          sp.data["kind"] = type == "CS" ? "crossing-sliding" : "switching-sliding";
          sp.data["located_by"] = "the grazing test: the F+ orbit leaving the crossing is tangent to Sigma";
        }
      }
    } catch (const std::exception& e) {
      why["message"] = e.what();
    }
    sp.data["sliding"] = why;
    if (type == "GR") continue;
    sp.type = type;
    if (type == "GS" || type == "AS") sp.data["kind"] = type == "GS" ? "grazing-sliding" : "adding-sliding";
    r->branch.points[sp.index].label = type;
    if (r->branch.message.rfind("reached GR ", 0) == 0 && &sp == &r->branch.special_points.back())
      r->branch.message.replace(8, 2, type);
    // A message of the impacts' way through a grazing (one impact more or
    // less) said of a sliding bifurcation: through_sliding's is the one.
    if (sp.data.contains("continued") && !sp.data["continued"].get<bool>() && sp.data.contains("message") &&
        sp.data["message"].get<std::string>().rfind("not continued", 0) != 0)
      sp.data["message"] = "not continued through the " + type + ": " + sp.data["message"].get<std::string>();
  }
  for (SpecialPoint& sp : r->branch.special_points) {
    if (sp.type != "CS" && sp.type != "SS") continue;
    // The point's label is the test's type (CS) until its describe() told an SS.
    if (sp.index >= 0) r->branch.points[sp.index].label = sp.type;
    if (sp.status == EventStatus::kBracketed)
      sliding::locate_bracketed(*r->problem, *shooting_at(*r, sp.y), &r->branch, &sp);
  }
  sliding::describe_sliding_sides(*r->problem, *r->shooting, &r->branch);
}

// The sliding bifurcation at the GR point `gr` that ended a branch of
// Filippov orbits: "GS" or "AS" (sliding::grazing_type), "CS" or "SS" (a GR
// at the zero of the CS test, crossing_sliding_at_grazing), else "" (an
// ordinary grazing).
std::string sliding_type_at(const BranchResult& r, const SpecialPoint& gr) {
  const Vector u = r.problem->u(gr.y);
  nlohmann::ordered_json why;
  const std::string type = sliding::grazing_type(*shooting_at(r, gr.y), u, &why);
  return type == "GR" ? crossing_sliding_at_grazing(r, gr, u, &why) : type;
}

// A GR of a Filippov branch that the grazing test saw as a jump (the
// excursion of an adding-sliding, or the slide of a grazing-sliding,
// shrinks too fast for the simulation near the point, so no contact is found
// there): when the orbit beyond it, `next`, differs from the GR's by one
// slide added (sliding::slide_added), it is that AS or GS, located on the
// side without the slide (sliding::locate_slide_added), and the point moves
// there.
bool slide_added_at(BranchResult& r, const periodic::ShootingSystem& shooting, const Vector& next,
                    SpecialPoint* gr) {
  const auto here = shooting.trajectory(r.problem->u(gr->y));
  const auto there = shooting.trajectory(r.problem->u(next));
  int side = 0;
  std::string type = sliding::slide_added(*there, *here, &side);
  const bool lost = !type.empty();
  if (!lost) type = sliding::slide_added(*here, *there, &side);
  if (type.empty()) return false;
  const int mode = type == "AS" ? filippov::kSlidingMode : side;
  const Vector& fewer = lost ? next : gr->y;
  Vector y;
  double precision = 0.0;
  std::string why;
  if (!sliding::locate_slide_added(*r.problem, shooting, fewer, lost ? gr->y : next, mode, &y, &precision, &why)) {
    gr->data["sliding"]["slide_added"] = type + " not located: " + why;
    return false;
  }
  gr->y = y;
  gr->type = type;
  gr->status = EventStatus::kLocated;
  gr->precision = precision;
  gr->test_value = sliding::sliding_margin(shooting, r.problem->u(y), mode);
  gr->data["kind"] = type == "AS" ? "adding-sliding" : "grazing-sliding";
  gr->data["located_by"] = "the secant method on the margin of the side without the slide";
  gr->data["margin"] = gr->test_value;
  if (gr->index >= 0 && gr->index < static_cast<int>(r.branch.points.size())) {
    r.branch.points[gr->index].y = y;
    r.branch.points[gr->index].label = type;
  }
  if (r.branch.message.rfind("reached GR ", 0) == 0) r.branch.message.replace(8, 2, type);
  return true;
}

// "grazing": "continue" on a branch of Filippov orbits: through each sliding
// bifurcation the grazing test stopped it at (GS, AS; CS and SS where the
// event count changes there), from the first orbit beyond it with another
// event sequence (sliding::orbit_beyond_sliding_bifurcation), the branch
// continued again; up to 8 times. (A CS or SS that keeps the count is gone
// through by the engine itself: the orbit is continuous there.)
void through_sliding(BranchResult* r, const ContinuationOptions& options, const std::function<TestFunctions()>& set) {
  Branch& b = r->branch;
  for (int crossing = 0; crossing < 8; ++crossing) {
    if (b.stop_reason != StopReason::kUserStop || b.special_points.empty()) return;
    SpecialPoint& gr = b.special_points.back();
    if (gr.type != "GR" || gr.data.value("continued", false)) return;
    std::string type;  // "": perhaps an AS or GS seen as a jump (slide_added_at), else an ordinary grazing
    try {
      type = sliding_type_at(*r, gr);
    } catch (const std::exception& e) {
      gr.data["message"] = std::string("not continued: ") + e.what();
      return;
    }
    const auto shooting = shooting_at(*r, gr.y);
    Vector next;
    std::string why;
    if (!sliding::orbit_beyond_sliding_bifurcation(*r->problem, *shooting, gr.y, gr.tangent, std::abs(options.ds),
                                                   &next, &why)) {
      if (type.empty()) return;
      gr.data["continued"] = false;
      gr.data["message"] = "not continued through the " + type + ": " + why;
      return;
    }
    if (type.empty() && !slide_added_at(*r, *shooting, next, &gr)) return;
    ContinuationOptions opts = options;
    opts.direction = next[next.size() - 1] >= gr.y[gr.y.size() - 1] ? 1 : -1;
    grazing::ThroughGrazing more = grazing::continue_through_grazing(*r->problem, next, opts, set, true);
    if (more.branch.points.empty()) return;
    const int offset = static_cast<int>(b.points.size());
    gr.data["continued"] = true;
    gr.data.erase("message");
    const std::string before = gr.data.value("sequence_before", "");
    gr.data["sequence_after"] = more.sequences.front();
    if (!r->sequences.empty()) r->sequences.back() = before + " -> " + more.sequences.front();
    for (auto& p : more.branch.points) b.points.push_back(std::move(p));
    for (auto sp : more.branch.special_points) {
      sp.index += offset;
      b.special_points.push_back(std::move(sp));
    }
    for (auto& sq : more.sequences) r->sequences.push_back(std::move(sq));
    for (auto c : more.crossings) {
      c.index += offset;
      if (c.before_index >= 0) c.before_index += offset;
      if (c.after_index >= 0) c.after_index += offset;
      r->grazings.push_back(std::move(c));
    }
    b.stop_reason = more.branch.stop_reason;
    b.message = more.branch.message;
  }
}

// A hybrid result named `name` over the run's shooting start.
BranchResult over(std::shared_ptr<const HybridRun> run, const ShootingStart& start, const std::string& name) {
  BranchResult r;
  r.name = name;
  r.kind = BranchKind::kOrbits;
  r.hybrid = std::move(run);
  r.problem = start.problem;
  r.shooting = start.system;
  r.tests = {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>(),
             std::make_shared<NeimarkSackerTest>()};
  return r;
}

}  // namespace

BranchResult find_orbit(std::shared_ptr<const HybridRun> run, const Progress& progress) {
  const ShootingStart start = shooting_start(*run);
  if (!start.ok) {
    BranchResult r;
    r.name = "orbit";
    r.kind = BranchKind::kOrbits;
    r.hybrid = run;
    r.branch.stop_reason = StopReason::kStartNotConverged;
    r.branch.message = "no guess of a periodic orbit: " + start.message;
    return r;
  }
  BranchResult r = over(run, start, "orbit");
  r.info["guess"] = {{"source", start.source}, {"period", start.system->period(start.problem->u(start.y))}};
  if (start.source == "section") {
    r.info["guess"]["section_returns"] = start.returns;
    r.info["guess"]["distance"] = start.distance;
  }
  // The guess corrected with the parameter fixed: one point.
  ContinuationOptions one = run->periodic->options;
  one.max_points = 1;
  one.bounds.clear();
  r.branch = continue_branch(*r.problem, start.y, detail::observed(one, r.name, progress));
  if (!r.branch.usable()) {
    r.branch.message = "no periodic orbit near the guess (" + start.source + "): " + r.branch.message;
    return r;
  }
  if (const std::string why = detail::stepped_over(*r.shooting, r.problem->u(r.branch.points[0].y)); !why.empty()) {
    r.branch.stop_reason = StopReason::kStartNotConverged;
    r.branch.message = "the orbit found " + why;
  }
  return r;
}

BranchResult continue_orbits(const BranchResult& orbit, const Progress& progress) {
  if (!orbit.hybrid || !orbit.hybrid->periodic || orbit.branch.points.empty())
    throw StudyError("continue_orbits: '" + orbit.name + "' is not a periodic orbit found by find_orbit");
  const HybridRun& run = *orbit.hybrid;
  const PeriodicSpec& spec = *run.periodic;
  if (spec.parameter.empty())
    throw StudyError("continue_orbits: run '" + run.name +
                     "' names no parameter to continue the orbit in ('periodic.parameter')");
  BranchResult r = orbit;
  r.name = "branch";
  r.info = orbit.info;
  const ContinuationOptions options = detail::observed(spec.options, r.name, progress);
  const Vector& y0 = orbit.branch.points.front().y;
  // Grazing ("GR") stops the branch: past it the orbits have another event
  // sequence. A fresh GrazingTest per segment, since it keeps the first
  // orbit's events; with "grazing": "continue" the branch goes on with the
  // new event sequence.
  if (!spec.grazing) {
    // Without the grazing test (whose own simulation searches the guards
    // inside the steps), each orbit is checked as find_orbit's is: the
    // branch ends before the first that steps over an event.
    r.branch = continue_branch(*r.problem, y0, options, r.tests);
    detail::end_before_stepped_over(
        &r, [&r](const Vector& y) { return detail::stepped_over(*shooting_at(r, y), r.problem->u(y)); });
    return r;
  }
  // A Filippov orbit's branch also locates where an arrival at Sigma meets
  // the boundary of the sliding region (CS, SS: analyses/sliding/), and
  // goes on through it (the orbit and its multipliers are continuous there);
  // its grazing test counts the events so that a CS or SS is no grazing.
  TestFunctions tests = r.tests;
  if (run.filippov) tests.push_back(std::make_shared<sliding::CrossingSlidingTest>());
  const bool filippov = run.filippov;
  const auto set = [&tests, filippov] {
    TestFunctions t = tests;
    t.push_back(filippov ? std::make_shared<GrazingTest>(sliding::sliding_event_count)
                         : std::make_shared<GrazingTest>());
    return t;
  };
  grazing::ThroughGrazing through =
      grazing::continue_through_grazing(*r.problem, y0, options, set, spec.grazing_continue);
  r.branch = std::move(through.branch);
  r.sequences = std::move(through.sequences);
  r.grazings = std::move(through.crossings);
  r.tests = set();
  if (run.filippov && spec.grazing_continue) through_sliding(&r, options, set);
  if (run.filippov) classify_sliding(&r);
  return r;
}

namespace detail {

std::string stepped_over(const periodic::ShootingSystem& shooting, const Vector& u) {
  flow::SimulationOptions searched = without_samples(shooting.options().simulation);
  searched.guard_search = true;
  const double t0 = shooting.start_time(u);
  const flow::Trajectory check = flow::simulate(*shooting.hybrid(), shooting.options().mode, t0,
                                                shooting.hybrid_state(u), t0 + shooting.period(u), searched);
  // Only the events are read: a dense system's trajectory with the
  // variational equations is the corrector's (cached), a matrix-free one's
  // would cost n directions a period, so there the state alone.
  const std::string shot = event_sequence(*shooting.hybrid(), *shooting.trajectory(u, !shooting.matrix_free()));
  if (!check.ok() || event_sequence(*shooting.hybrid(), check) == shot) return "";
  return "(events " + shot + ") steps over an event inside one integration step: simulated with every guard " +
         "searched inside its steps, its period has the events " + event_sequence(*shooting.hybrid(), check) +
         "; bound the steps ('simulation.max_step') so that the shooting sees it";
}

void end_before_stepped_over(BranchResult* r, const std::function<std::string(const Vector& y)>& why_at) {
  Branch& branch = r->branch;
  for (std::size_t k = 1; k < branch.points.size(); ++k) {
    const std::string why = why_at(branch.points[k].y);
    if (why.empty()) continue;
    branch.points.resize(k);
    std::erase_if(branch.special_points, [k](const SpecialPoint& sp) { return sp.index >= static_cast<int>(k); });
    branch.stop_reason = StopReason::kEvaluationError;
    branch.message = "stopped before point " + std::to_string(k) + ": its orbit " + why;
    return;
  }
}

}  // namespace detail

}  // namespace saltus::studies
