#include "drivers/continue_command.h"

#include <cmath>
#include <complex>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>

#include "analyses/hopf/cycle_start.h"
#include "continuation/branch_switching.h"
#include "continuation/eigenvalues.h"
#include "continuation/periodic/find_orbit.h"
#include "continuation/periodic/period_doubling.h"
#include "continuation/pseudo_arclength.h"
#include "drivers/output.h"
#include "drivers/restart.h"
#include "testfunctions/branch_point.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"
#include "testfunctions/hopf.h"
#include "testfunctions/hopf_curve.h"
#include "testfunctions/orbit_maximum.h"
#include "testfunctions/user_value.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

namespace {

ContinuationOptions with_progress(ContinuationOptions options, const std::string& name,
                                  const Progress& progress) {
  if (progress)
    options.callback = [progress, name](const Branch& b) {
      progress(name, b);
      return true;
    };
  return options;
}

const SpecialPoint& nth(const Branch& branch, const std::string& type, int n, const std::string& key,
                        const std::string& field = "from", const std::string& where = "the first branch") {
  int seen = 0;
  for (const auto& s : branch.special_points)
    if (s.type == type && s.status != EventStatus::kJump && ++seen == n) return s;
  throw RunFileError("'" + key + "." + field + "' = " + std::to_string(n) + ", but " + where + " has " +
                     std::to_string(seen) + " " + type + " point(s)");
}

// (x, p) of a point y of a branch: the free parameters from y, the others fixed.
Vector u_of(const Branch& branch, const Vector& y) {
  Vector u(branch.state_size + branch.parameters.size());
  u.head(branch.state_size) = y.head(branch.state_size);
  Vector p = branch.parameters;
  for (std::size_t i = 0; i < branch.free_parameters.size(); ++i)
    p[branch.free_parameters[i]] = y[branch.state_size + static_cast<int>(i)];
  u.tail(p.size()) = p;
  return u;
}

// A branch that did not start, with the reason: what the CLI prints.
Branch not_started(const ContinuationProblem& problem, const std::string& message) {
  Branch b = empty_branch(problem);
  b.stop_reason = StopReason::kStartNotConverged;
  b.message = message;
  return b;
}

constexpr const char* kPeriodicHint =
    " (in the run file: a better 'start' or 'periodic.period', or let 'periodic.from_simulation' find the "
    "guess)";

// The branch of orbits of `problem` (a shooting problem) through the guess
// y0 = (x, [T,] p_free): the orbit first, by damped Newton at the start
// parameters (a guess far from any orbit, or one whose simulation fails, a
// Zeno point, a grazing, ends here with its status and last residual), then
// the continuation. `hint` is added to the message of a branch that did not
// start.
Branch orbit_branch(const ContinuationProblem& problem, Vector y0, const ContinuationOptions& options,
                    const TestFunctions& tests, const std::string& hint) {
  const int n = problem.state_size();
  const periodic::OrbitSearch start = periodic::find_orbit(problem.system(), problem.u(y0));
  if (!start.ok()) {
    std::ostringstream msg;
    msg << "no periodic orbit near the start (" << periodic::to_string(start.status)
        << ", last residual |F| = " << start.residual_norm << "): " << start.message << hint;
    return not_started(problem, msg.str());
  }
  y0.head(n) = start.u.head(n);
  Branch branch;
  try {
    branch = continue_branch(problem, y0, options, tests);
  } catch (const std::runtime_error& e) {
    branch = not_started(problem, std::string("the start point is not near a periodic orbit: ") + e.what());
  }
  if (branch.stop_reason == StopReason::kStartNotConverged) branch.message += hint;
  return branch;
}

// Periodic runs: the branch of orbits from the start (a guess, or one found
// by simulation), then the period-doubled branches.
std::vector<NamedBranch> run_periodic(const RunFile& run, const TestFunctions& tests,
                                      const Progress& progress, std::string* follow_up_error) {
  const PeriodicRun& pr = *run.periodic;
  const auto shooting = pr.shooting;
  const int n = shooting->state_size();
  const int nx = shooting->options().autonomous ? n - 1 : n;
  ContinuationProblem problem(shooting, run.parameters, run.continuation_parameters);
  Vector y0(problem.size());
  y0.head(n) = run.start_state;
  y0[n] = run.parameters[problem.free_parameters()[0]];
  std::vector<NamedBranch> branches;
  if (run.restart) {
    branches.push_back({"branch", restored_branch(run, problem), shooting});
  } else if (pr.from_simulation) {
    Vector z(nx + run.parameters.size());
    z << run.start_state.head(nx), run.parameters;
    const auto& opt = shooting->options();
    const periodic::OrbitGuess guess =
        periodic::orbit_from_simulation(*pr.flow, opt.mode, opt.t0, z, *pr.from_simulation);
    if (!guess.ok) {
      branches.push_back({"branch",
                          not_started(problem, "no periodic orbit from the simulation: " + guess.message),
                          shooting});
      return branches;
    }
    y0.head(nx) = guess.state.head(nx);
    y0[nx] = guess.period;
    shooting->accept(problem.u(y0));  // the phase plane through the guess
  }
  if (!run.restart)
    branches.push_back(
        {"branch",
         orbit_branch(problem, y0, with_progress(run.options, "branch", progress), tests, kPeriodicHint),
         shooting});
  if (!branches.front().branch.usable()) return branches;

  std::shared_ptr<periodic::ShootingSystem> system = shooting;
  for (int level = 1; level <= pr.doublings; ++level) {
    const NamedBranch& before = branches.back();
    const SpecialPoint* pd = nullptr;
    for (const auto& s : before.branch.special_points)
      if (s.type == "PD" && s.status != EventStatus::kJump) {
        pd = &s;
        break;
      }
    if (!pd) {
      const std::string why = "periodic.period_doubling: branch '" + before.name +
                              "' has no PD point to switch at (" + std::to_string(level - 1) + " of " +
                              std::to_string(pr.doublings) + " levels done)";
      if (!follow_up_error) throw RunFileError(why);
      *follow_up_error = why;
      break;
    }
    ContinuationProblem at_pd(system, before.branch.parameters, run.continuation_parameters);
    const periodic::DoubledStart next = periodic::period_doubled(system, at_pd, *pd);
    system = next.system;
    ContinuationProblem doubled(system, before.branch.parameters, run.continuation_parameters);
    const std::string name = "doubled" + std::to_string(level);
    Branch b;
    try {
      b = continue_branch(doubled, next.y, with_progress(pr.doubling_options, name, progress), tests,
                          &next.tangent);
    } catch (const std::runtime_error& e) {
      b = not_started(doubled, std::string("the doubled branch could not start: ") + e.what());
    }
    branches.push_back({name, std::move(b), system});
    if (!branches.back().branch.usable()) break;
  }
  return branches;
}

}  // namespace

namespace {

// The cycles born at the run's n-th HB: the guess from the normal form,
// corrected and continued away from the HB by shooting.
NamedBranch hopf_cycles(const RunFile& run, const Branch& first, const ContinuationProblem& equilibria,
                        const Progress& progress) {
  const HopfCycles& hc = *run.hopf_cycles;
  const SpecialPoint& hb = nth(first, "HB", hc.from, "hopf_cycles");
  const int k = equilibria.free_parameters()[0];
  CycleGuess guess;
  try {
    guess = cycle_near_hopf(equilibria.system(), equilibria.u(hb.y), k, hc.amplitude);
  } catch (const std::invalid_argument& e) {
    throw RunFileError(std::string("hopf_cycles: ") + e.what());
  }
  const int n = equilibria.state_size();
  const Vector p = guess.u.tail(guess.u.size() - n);
  auto shooting =
      std::make_shared<periodic::ShootingSystem>(hc.flow, static_cast<int>(p.size()), hc.shooting, guess.u);
  ContinuationProblem cycles(shooting, p, run.continuation_parameters);
  Vector y0(n + 2);
  y0 << guess.x, guess.period, p[k];
  ContinuationOptions options = with_progress(hc.options, "cycles", progress);
  options.direction = guess.offset > 0 ? 1 : -1;  // away from the HB
  TestFunctions tests = {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>(),
                         std::make_shared<NeimarkSackerTest>()};
  for (const auto& e : hc.events) {
    const models::Expression expression = e.expression;
    auto rate = [expression](const Vector& z, const Vector& dz) {  // grad e . dz, one jet pass
      std::vector<ceres::Jet<double, 1>> values(z.size());
      for (Eigen::Index i = 0; i < z.size(); ++i) {
        values[i] = ceres::Jet<double, 1>(z[i]);
        values[i].v[0] = dz[i];
      }
      return expression.evaluate(values.data()).v[0];
    };
    tests.push_back(std::make_shared<OrbitMaximumTest>(
        e.name, [expression](const Vector& z) { return expression.evaluate(z.data()); }, rate, e.stop));
  }
  return {"cycles",
          orbit_branch(cycles, y0, options, tests, " (in the run file: a smaller 'hopf_cycles.amplitude')"),
          shooting};
}

}  // namespace

// The fold curve and the switched branch, appended to *out.
void follow_ups(const RunFile& run, const ContinuationProblem& problem, const TestFunctions& tests,
                const Progress& progress, std::vector<NamedBranch>* out);

std::vector<NamedBranch> run_continuation(const RunFile& run, const Progress& progress,
                                          std::string* follow_up_error) {
  const auto system = run.system;
  ContinuationProblem problem(system, run.parameters, run.continuation_parameters);
  TestFunctions tests;
  if (run.detect_folds) tests.push_back(std::make_shared<FoldTest>());
  if (run.detect_branch_points) tests.push_back(std::make_shared<BranchPointTest>());
  if (run.detect_hopf) tests.push_back(std::make_shared<HopfTest>());
  if (run.periodic) {
    if (run.periodic->detect_lpc) tests.push_back(std::make_shared<FoldTest>("LPC"));
    if (run.periodic->detect_pd) tests.push_back(std::make_shared<PeriodDoublingTest>());
    if (run.periodic->detect_ns) tests.push_back(std::make_shared<NeimarkSackerTest>());
  }
  for (const auto& e : run.events) {
    const models::Expression expression = e.expression;
    tests.push_back(std::make_shared<UserTest>(
        e.name, [expression](const Vector& u) { return expression.evaluate(u.data()); }, e.stop));
  }
  if (run.periodic) return run_periodic(run, tests, progress, follow_up_error);
  Vector y0(problem.size());
  y0.head(problem.state_size()) = run.start_state;
  y0[problem.state_size()] = run.parameters[problem.free_parameters()[0]];

  std::vector<NamedBranch> branches;
  branches.reserve(
      5);  // the first branch, fold and Hopf curves, a switched branch, cycles: references stay valid
  branches.push_back(
      {"branch", run.restart
                     ? restored_branch(run, problem)
                     : continue_branch(problem, y0, with_progress(run.options, "branch", progress), tests)});
  if (!branches.front().branch.usable()) return branches;

  try {
    follow_ups(run, problem, tests, progress, &branches);
  } catch (const RunFileError& e) {
    if (!follow_up_error) throw;
    *follow_up_error = e.what();
  }
  return branches;
}

// The Hopf curve from the n-th HB of the first branch, or from the n-th BT of
// the fold curve (fold: its problem) into the curve's Hopf side.
NamedBranch hopf_curve_branch(const RunFile& run, const ContinuationProblem& problem,
                              const std::vector<NamedBranch>& branches, const FoldCurve& fold,
                              const Progress& progress) {
  const FollowUp& f = *run.hopf_curve;
  const ContinuationOptions options = with_progress(f.options, "hopf_curve", progress);
  Vector u;
  if (f.from_bt > 0) {
    const auto on_fold = std::find_if(branches.begin(), branches.end(),
                                      [](const NamedBranch& nb) { return nb.name == "fold_curve"; });
    if (on_fold == branches.end()) throw RunFileError("hopf_curve.from_bt: there is no fold curve");
    u = fold.problem->u(nth(on_fold->branch, "BT", f.from_bt, "hopf_curve", "from_bt", "the fold curve").y);
  } else {
    u = problem.u(nth(branches.front().branch, "HB", f.from, "hopf_curve").y);
  }
  try {
    const HopfCurve curve = hopf_curve(run.system, u, f.parameters);
    if (f.from_bt == 0)
      return {"hopf_curve", continue_branch(*curve.problem, curve.start, options, curve.tests)};
    const Vector tangent = hopf_side_tangent(curve, options);
    return {"hopf_curve", continue_branch(*curve.problem, curve.start, options, curve.tests, &tangent)};
  } catch (const std::exception& e) {  // no HB/BT there, or no Hopf side
    throw RunFileError(std::string("hopf_curve: ") + e.what());
  }
}

void follow_ups(const RunFile& run, const ContinuationProblem& problem, const TestFunctions& tests,
                const Progress& progress, std::vector<NamedBranch>* out) {
  std::vector<NamedBranch>& branches = *out;
  const auto& system = run.system;
  const Branch& first = branches.front().branch;
  FoldCurve curve;  // its problem maps the fold curve's points to (x, p) for a Hopf curve from a BT
  // A follow-up that cannot start is an error, as a missing LP is: the
  // branches before it are written, the run exits non-zero.
  const auto started = [&branches](const std::string& key) {
    if (branches.back().branch.usable()) return;
    const std::string why = key + ": could not start: " + branches.back().branch.message;
    branches.pop_back();
    throw RunFileError(why);
  };
  if (run.fold_curve) {
    const SpecialPoint& lp = nth(first, "LP", run.fold_curve->from, "fold_curve");
    curve = fold_curve(system, problem.u(lp.y), run.fold_curve->parameters);
    ContinuationOptions options = with_progress(run.fold_curve->options, "fold_curve", progress);
    TestFunctions tests = {curve.cusp};
    if (run.equilibria)
      for (const char* type : {"BT", "ZH"}) tests.push_back(std::make_shared<FoldCurveTest>(type));
    branches.push_back({"fold_curve", continue_branch(*curve.problem, curve.start, options, tests)});
    started("fold_curve");
  }
  if (run.hopf_curve) {
    branches.push_back(hopf_curve_branch(run, problem, branches, curve, progress));
    started("hopf_curve");
  }
  if (run.hopf_cycles) {
    branches.push_back(hopf_cycles(run, first, problem, progress));
    started("hopf_cycles");
  }
  if (run.switch_branch) {
    const SpecialPoint& bp = nth(first, "BP", run.switch_branch->from, "switch_branch");
    try {
      branches.push_back(
          {"switched",
           switch_branch(problem, bp, with_progress(run.switch_branch->options, "switched", progress),
                         tests)});
    } catch (const std::invalid_argument& e) {
      throw RunFileError(std::string("switch_branch: ") + e.what());
    }
    started("switch_branch");
  }
}

namespace {

// The multipliers of the orbit at y; throws when its simulation fails.
Eigen::VectorXcd multipliers_at(const periodic::ShootingSystem& shooting, const Branch& branch,
                                const Vector& y, std::complex<double>* trivial) {
  const Matrix M = shooting.monodromy(u_of(branch, y));
  if (shooting.options().autonomous) return periodic::nontrivial_multipliers(M, trivial);
  return periodic::floquet_multipliers(M);
}

// A special point's period and multipliers, at the full accuracy (ShootingSystem::refined_shooting).
void add_multipliers(const periodic::ShootingSystem& coarse, const Branch& branch, const Vector& y,
                     nlohmann::ordered_json* s) {
  const auto fine = coarse.refined_shooting();
  const periodic::ShootingSystem& shooting = fine ? *fine : coarse;
  const Vector u = u_of(branch, y);
  (*s)["period"] = shooting.period(u);
  try {
    std::complex<double> trivial;
    const Eigen::VectorXcd mu = multipliers_at(shooting, branch, y, &trivial);
    auto& list = (*s)["multipliers"] = nlohmann::ordered_json::array();
    for (const auto& m : mu) list.push_back({m.real(), m.imag()});
    if (shooting.options().autonomous) (*s)["trivial_multiplier"] = {trivial.real(), trivial.imag()};
  } catch (const std::exception& e) {
    (*s)["multipliers_error"] = e.what();
  }
}

}  // namespace

nlohmann::ordered_json summarize(const RunFile& run, const std::vector<NamedBranch>& branches) {
  nlohmann::ordered_json j;
  j["name"] = run.name;
  j["run_file"] = run.path.string();
  const Branch& first = branches.front().branch;
  j["stop_reason"] = to_string(first.stop_reason);
  j["message"] = first.message;
  j["points"] = first.points.size();
  if (run.restart) j["restart"] = {{"from", run.restart->dir.string()}, {"point", run.restart->label}};
  auto& specials = j["special_points"] = nlohmann::ordered_json::array();
  auto& list = j["branches"] = nlohmann::ordered_json::array();
  for (const auto& nb : branches) {
    const auto& [name, branch, shooting] = nb;
    nlohmann::ordered_json b = {{"name", name}, {"file", name + ".csv"}};
    b.update(branch.summary());
    std::size_t k = 0;
    for (auto s : b["special_points"]) {
      s["branch"] = name;
      if (shooting) add_multipliers(*shooting, branch, branch.special_points[k].y, &s);
      ++k;
      specials.push_back(s);
    }
    list.push_back(b);
  }
  return j;
}

namespace {

double plotted(const Branch& branch, const Vector& y, const std::string& axis) {
  if (axis == "max") return y.head(branch.state_size).lpNorm<Eigen::Infinity>();
  if (axis == "norm") return y.head(branch.state_size).norm() / std::sqrt(double(branch.state_size));
  return branch.component(y, axis);
}

Figure figure_of(const std::string& title, const std::string& x, const std::string& y,
                 const std::vector<const NamedBranch*>& branches) {
  Figure f;
  f.title = title;
  f.xlabel = x;
  f.ylabel = y == "max" ? "max |x_i|" : y == "norm" ? "|x| / sqrt(n)" : y;
  for (const NamedBranch* nb : branches) {
    Figure::Series s{nb->name, {}};
    for (const auto& p : nb->branch.points)
      s.points.emplace_back(plotted(nb->branch, p.y, x), plotted(nb->branch, p.y, y));
    f.series.push_back(std::move(s));
    for (const auto& sp : nb->branch.special_points)
      f.labels.push_back({plotted(nb->branch, sp.y, x), plotted(nb->branch, sp.y, y), sp.label()});
  }
  return f;
}

// One period of the orbit at the point y of a branch of orbits, sampled.
flow::Trajectory orbit_samples(const NamedBranch& nb, const Vector& y, int samples) {
  const auto& shooting = nb.shooting;
  const Vector u = u_of(nb.branch, y);
  const double T = shooting->period(u);
  flow::SimulationOptions plain = shooting->options().simulation;
  plain.variational = false;
  plain.output_interval = T / samples;
  const double t0 = shooting->options().t0;
  return flow::simulate(*shooting->hybrid(), shooting->options().mode, t0, shooting->hybrid_state(u), t0 + T,
                        plain);
}

// Is the point stable: an equilibrium with no eigenvalue right of the axis,
// an orbit with every nontrivial multiplier inside the unit circle? Empty
// when the branch has no stability (or the orbit cannot be simulated).
std::optional<bool> stable_at(const NamedBranch& nb, const BranchPoint& p) {
  if (!nb.shooting) {
    if (p.eigenvalues.size() == 0) return std::nullopt;
    return unstable_count(p.eigenvalues) == 0;
  }
  try {
    std::complex<double> trivial;
    const Eigen::VectorXcd mu = multipliers_at(*nb.shooting, nb.branch, p.y, &trivial);
    return mu.size() == 0 || std::abs(mu[0]) < 1.0;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The one-parameter branches against the plot axes. Where the points carry
// stability they are drawn as points, stable filled and unstable open:
// equilibria by their eigenvalues, orbits by their multipliers. Cycles born
// at a Hopf point, drawn among equilibria, show the plotted quantity's range
// over the orbit (its maximum and minimum).
Figure branch_figure(const RunFile& run, const std::vector<const NamedBranch*>& branches) {
  Figure f = figure_of(run.periodic ? run.name + ": periodic orbits" : run.name, run.plot.x, run.plot.y, {});
  for (const NamedBranch* nb : branches) {
    const bool extent = nb->shooting && !run.periodic;
    auto ys = [&](const Vector& y) {
      if (!extent) return std::vector<double>{plotted(nb->branch, y, run.plot.y)};
      const int n = nb->branch.state_size - 1;  // the unknowns, then T
      const auto& names = nb->branch.names;
      const auto unknown = std::find(names.begin(), names.begin() + n, run.plot.y) - names.begin();
      if (unknown == n && run.plot.y != "max" && run.plot.y != "norm")
        return std::vector<double>{plotted(nb->branch, y, run.plot.y)};  // a parameter, or T
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (const auto& x : orbit_samples(*nb, y, 200).x) {
        const double v = run.plot.y == "max"    ? x.head(n).lpNorm<Eigen::Infinity>()
                         : run.plot.y == "norm" ? x.head(n).norm() / std::sqrt(double(n))
                                                : x[unknown];
        lo = std::min(lo, v), hi = std::max(hi, v);
      }
      return std::vector<double>{hi, lo};
    };
    Figure::Series line{nb->name, {}};
    Figure::Series stable{nb->name + " stable", {}, "points", "pt 7 ps 0.6"};
    Figure::Series unstable{nb->name + " unstable", {}, "points", "pt 6 ps 0.6"};
    for (const auto& p : nb->branch.points) {
      const std::optional<bool> s = stable_at(*nb, p);
      if (nb->shooting && !s) continue;  // the orbit cannot be simulated: not drawn
      const double x = plotted(nb->branch, p.y, run.plot.x);
      for (double y : ys(p.y)) (!s ? line : *s ? stable : unstable).points.emplace_back(x, y);
    }
    for (auto* series : {&line, &stable, &unstable})
      if (!series->points.empty()) f.series.push_back(std::move(*series));
    for (const auto& sp : nb->branch.special_points)
      f.labels.push_back({plotted(nb->branch, sp.y, run.plot.x), ys(sp.y).front(), sp.label()});
  }
  return f;
}

// The orbits at the start and at the special points of the branches of
// orbits, in the phase plane.
Figure orbits_figure(const RunFile& run, const std::vector<NamedBranch>& branches) {
  const auto& phase = run.periodic ? run.periodic->phase : run.hopf_cycles->phase;
  Figure f{run.name + ": orbits at the special points", phase[0], phase[1], {}, {}};
  const std::string parameter = run.continuation_parameters[0];
  auto add_orbit = [&](const NamedBranch& nb, const Vector& y, const std::string& what) {
    const auto names = nb.shooting->hybrid()->state_names();
    const auto ix = std::find(names.begin(), names.end(), phase[0]) - names.begin();
    const auto iy = std::find(names.begin(), names.end(), phase[1]) - names.begin();
    std::ostringstream title;
    title << what << ", " << parameter << " = " << std::setprecision(6) << nb.branch.component(y, parameter);
    Figure::Series s{title.str(), {}, "lines", ""};
    for (const auto& x : orbit_samples(nb, y, 400).x) s.points.emplace_back(x[ix], x[iy]);
    f.series.push_back(std::move(s));
  };
  for (const auto& nb : branches) {
    if (!nb.shooting || nb.branch.points.empty()) continue;
    if (&nb == &branches.front() || nb.name == "cycles")
      add_orbit(nb, nb.branch.points.front().y, "start (" + nb.name + ")");
    for (const auto& sp : nb.branch.special_points)
      if (sp.type != "EP") add_orbit(nb, sp.y, sp.type + " (" + nb.name + ")");
  }
  return f;
}

}  // namespace

std::vector<fs::path> write_outputs(const RunFile& run, const std::vector<NamedBranch>& branches,
                                    const fs::path& dir, std::vector<std::string>* warnings) {
  fs::create_directories(dir);
  std::vector<fs::path> files;
  for (const auto& nb : branches) {
    const fs::path csv = dir / (nb.name + ".csv");
    write_file_atomically(csv, [&](std::ostream& out) { nb.branch.write_csv(out); });
    files.push_back(csv);
  }
  const fs::path summary = dir / "summary.json";
  write_file_atomically(summary, [&](std::ostream& out) { out << summarize(run, branches).dump(2) << '\n'; });
  files.push_back(summary);

  // The one-parameter branches share a figure; a fold curve gets its own, in
  // its two parameters.
  std::vector<const NamedBranch*> one_parameter;
  for (const auto& nb : branches)
    if (nb.name != "fold_curve" && nb.name != "hopf_curve" && nb.branch.points.size() > 0)
      one_parameter.push_back(&nb);
  std::vector<Drawing> drawings;
  auto add = [&](Figure f, const std::string& stem) {
    if (!f.series.empty()) drawings.push_back({stem, std::move(f)});  // else a branch that did not start
  };
  add(branch_figure(run, one_parameter), "branch");
  if (run.periodic || run.hopf_cycles) add(orbits_figure(run, branches), "orbits");
  // The curves in two parameters: the fold curve on its own, and with a Hopf
  // curve both in one figure (when they share the parameters).
  const NamedBranch* fold = nullptr;
  const NamedBranch* hopf = nullptr;
  for (const auto& nb : branches) {
    if (nb.branch.points.empty()) continue;
    if (nb.name == "fold_curve") fold = &nb;
    if (nb.name == "hopf_curve") hopf = &nb;
  }
  if (fold)
    add(figure_of(run.name + ": fold curve", run.fold_curve->parameters[0], run.fold_curve->parameters[1],
                  {fold}),
        "fold_curve");
  if (hopf) {
    std::vector<const NamedBranch*> curves = {hopf};
    if (fold && run.fold_curve->parameters == run.hopf_curve->parameters) curves.push_back(fold);
    add(figure_of(run.name + ": curves", run.hopf_curve->parameters[0], run.hopf_curve->parameters[1],
                  curves),
        "curves");
  }
  for (auto& p : draw(drawings, dir, warnings)) files.push_back(p);
  return files;
}

}  // namespace saltus::drivers
