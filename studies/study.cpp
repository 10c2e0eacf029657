#include "studies/study.h"

#include <fstream>
#include <sstream>

#include "continuation/periodic/find_orbit.h"
#include "continuation/periodic/orbit_guess.h"
#include "studies/detail.h"
#include "studies/restart.h"
#include "testfunctions/branch_point.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"
#include "testfunctions/hopf.h"
#include "testfunctions/user_value.h"

namespace saltus::studies {

std::string to_string(BranchKind kind) {
  switch (kind) {
    case BranchKind::kSolutions:
      return "solutions";
    case BranchKind::kEquilibria:
      return "equilibria";
    case BranchKind::kOrbits:
      return "orbits";
    case BranchKind::kFoldCurve:
      return "fold_curve";
    case BranchKind::kHopfCurve:
      return "hopf_curve";
    case BranchKind::kCycleCurve:
      return "cycle_curve";
  }
  return "?";
}

std::shared_ptr<const RunFile> load(const std::filesystem::path& path) {
  return std::make_shared<const RunFile>(read_run_file(path));
}

std::shared_ptr<const RunFile> load_description(const Json& description, const std::string& where) {
  return std::make_shared<const RunFile>(parse_run_file(description, where));
}

Vector u_of(const Branch& branch, const Vector& y) {
  Vector u(branch.state_size + branch.parameters.size());
  u.head(branch.state_size) = y.head(branch.state_size);
  Vector p = branch.parameters;
  for (std::size_t i = 0; i < branch.free_parameters.size(); ++i)
    p[branch.free_parameters[i]] = y[branch.state_size + static_cast<int>(i)];
  u.tail(p.size()) = p;
  return u;
}

namespace detail {

ContinuationOptions observed(ContinuationOptions options, const std::string& name, const Progress& progress) {
  if (progress) options.callback = [progress, name](const Branch& b) { return progress(name, b); };
  return options;
}

Branch not_started(const ContinuationProblem& problem, const std::string& message) {
  Branch b = empty_branch(problem);
  b.stop_reason = StopReason::kStartNotConverged;
  b.message = message;
  return b;
}

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

}  // namespace detail

namespace {

constexpr const char* kPeriodicHint =
    " (in the run file: a better 'start' or 'periodic.period', or let 'periodic.from_simulation' find the "
    "guess)";

// The tests of the run's first branch: what its "continuation.detect" and
// "events" ask for.
TestFunctions first_branch_tests(const RunFile& run) {
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
  return tests;
}

// The first branch of orbits: from the run's guess, or from one found by
// simulation (the phase plane then goes through it).
Branch first_orbits(const RunFile& run, const ContinuationProblem& problem, const TestFunctions& tests,
                    const Progress& progress) {
  const PeriodicRun& pr = *run.periodic;
  const auto& shooting = pr.shooting;
  const int n = shooting->state_size();
  const int nx = shooting->options().autonomous ? n - 1 : n;
  Vector y0(problem.size());
  y0.head(n) = run.start_state;
  y0[n] = run.parameters[problem.free_parameters()[0]];
  if (pr.from_simulation) {
    Vector z(nx + run.parameters.size());
    z << run.start_state.head(nx), run.parameters;
    const auto& opt = shooting->options();
    const periodic::OrbitGuess guess =
        periodic::orbit_from_simulation(*pr.flow, opt.mode, opt.t0, z, *pr.from_simulation);
    if (!guess.ok) return detail::not_started(problem, "no periodic orbit from the simulation: " + guess.message);
    y0.head(nx) = guess.state.head(nx);
    y0[nx] = guess.period;
  }
  // The phase plane through the guess (a study run again on the same system
  // starts as its first run did, not from where that one's branch ended).
  shooting->accept(problem.u(y0));
  return detail::orbit_branch(problem, y0, detail::observed(run.options, "branch", progress), tests,
                              kPeriodicHint);
}

}  // namespace

BranchResult prepare_run(std::shared_ptr<const RunFile> run) {
  if (!run) throw StudyError("no system: load one first");
  BranchResult r;
  r.name = "branch";
  r.run = run;
  r.kind = run->periodic ? BranchKind::kOrbits : run->equilibria ? BranchKind::kEquilibria : BranchKind::kSolutions;
  r.problem = std::make_shared<const ContinuationProblem>(run->system, run->parameters, run->continuation_parameters);
  r.tests = first_branch_tests(*run);
  if (run->periodic) r.shooting = run->periodic->shooting, r.ode = run->periodic->ode;
  r.branch = empty_branch(*r.problem);
  return r;
}

BranchResult continue_run(std::shared_ptr<const RunFile> run, const Progress& progress) {
  BranchResult r = prepare_run(run);
  if (run->restart) {  // studies/restart.h: the saved point, not recomputed
    r.branch = restored_branch(*run, *r.problem);
    return r;
  }
  if (run->periodic) {
    r.branch = first_orbits(*run, *r.problem, r.tests, progress);
    return r;
  }
  Vector y0(r.problem->size());
  y0.head(r.problem->state_size()) = run->start_state;
  y0[r.problem->state_size()] = run->parameters[r.problem->free_parameters()[0]];
  r.branch = continue_branch(*r.problem, y0, detail::observed(run->options, "branch", progress), r.tests);
  return r;
}

const SpecialPoint* nth_point(const Branch& branch, const std::string& type, int n) {
  int seen = 0;
  for (const auto& s : branch.special_points)
    if (s.type == type && s.status != EventStatus::kJump && ++seen == n) return &s;
  return nullptr;
}

const SpecialPoint& special_point(const BranchResult& from, const std::string& label) {
  std::size_t digits = label.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(label[digits - 1]))) --digits;
  const std::string type = label.substr(0, digits);
  const std::string count = label.substr(digits);
  const int n = count.empty() ? 1 : count.size() > 6 ? 0 : std::stoi(count);
  if (type.empty() || n < 1) throw StudyError("'" + label + "' is not a point label: give a type and a count, as PD1");
  if (const SpecialPoint* p = nth_point(from.branch, type, n)) return *p;
  std::ostringstream have;
  for (const auto& s : from.branch.special_points) have << ' ' << s.label();
  throw StudyError("branch '" + from.name + "' has no " + label + " (its special points:" +
                   (have.str().empty() ? std::string(" none") : have.str()) + ")");
}

BranchResult continue_from(const BranchResult& from, const std::string& label, const FromOptions& options,
                           const Progress& progress) {
  return continue_from(from, special_point(from, label), options, progress);
}

}  // namespace saltus::studies
