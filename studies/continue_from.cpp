// continue_from: what follows a special point (studies/study.h), one
// function per follow-up, chosen by the point's type and the branch's kind.

#include <cmath>

#include "analyses/hopf/cycle_start.h"
#include "continuation/branch_switching.h"
#include "continuation/periodic/cycle_curve.h"
#include "continuation/periodic/ns_curve.h"
#include "continuation/periodic/period_doubling.h"
#include "models/expression_system.h"
#include "models/hybrid_expression.h"
#include "studies/detail.h"
#include "studies/study.h"
#include "testfunctions/cycle_codim2.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"
#include "testfunctions/hopf_curve.h"
#include "testfunctions/orbit_maximum.h"

namespace saltus::studies {


namespace {

using detail::curve_parameters;
using detail::observed;

// The follow-up's options: the caller's, else the branch's own. Curves of
// equilibria monitor the eigenvalues as their branch did (BT, ZH, HH, GH
// read them), whatever the caller's options say.
ContinuationOptions options_for(const BranchResult& from, const FromOptions& options) {
  ContinuationOptions o = options.options ? *options.options : from.branch.options;
  o.callback = nullptr;
  o.eigenvalues = from.branch.options.eigenvalues;
  o.eigenvalue_count = from.branch.options.eigenvalue_count;
  return o;
}

// A result over `problem` that shares the description of `from`.
BranchResult derived(const BranchResult& from, const SpecialPoint& point, const FromOptions& options,
                     const std::string& name, BranchKind kind) {
  BranchResult r;
  r.name = options.name.empty() ? name : options.name;
  r.kind = kind;
  r.run = from.run;
  r.hybrid = from.hybrid;
  r.started_from = point.label() + " of " + from.name;
  return r;
}

BranchResult fold_curve_from(const BranchResult& from, const SpecialPoint& lp, const FromOptions& options,
                             const Progress& progress) {
  BranchResult r = derived(from, lp, options, "fold_curve", BranchKind::kFoldCurve);
  r.parameters = curve_parameters(from, options, from.problem->system().parameter_names());
  const FoldCurve curve = fold_curve(from.problem->system_ptr(), from.problem->u(lp.y), r.parameters);
  r.problem = curve.problem;
  r.tests = {curve.cusp};
  if (from.kind == BranchKind::kEquilibria)
    for (const char* type : {"BT", "ZH"}) r.tests.push_back(std::make_shared<FoldCurveTest>(type));
  r.branch = continue_branch(*curve.problem, curve.start, observed(options_for(from, options), r.name, progress),
                             r.tests);
  return r;
}

BranchResult hopf_curve_from(const BranchResult& from, const SpecialPoint& point, const FromOptions& options,
                             const Progress& progress) {
  BranchResult r = derived(from, point, options, "hopf_curve", BranchKind::kHopfCurve);
  r.parameters = from.kind == BranchKind::kFoldCurve && options.parameters.empty()
                     ? from.parameters
                     : curve_parameters(from, options, from.problem->system().parameter_names());
  const HopfCurve curve = hopf_curve(from.problem->system_ptr(), from.problem->u(point.y), r.parameters);
  r.problem = curve.problem;
  r.tests = curve.tests;
  const ContinuationOptions o = observed(options_for(from, options), r.name, progress);
  if (point.type == "BT") {
    const Vector tangent = hopf_side_tangent(curve, o);
    r.branch = continue_branch(*curve.problem, curve.start, o, curve.tests, &tangent);
  } else {
    r.branch = continue_branch(*curve.problem, curve.start, o, curve.tests);
  }
  return r;
}

BranchResult switched_from(const BranchResult& from, const SpecialPoint& bp, const FromOptions& options,
                           const Progress& progress) {
  BranchResult r = derived(from, bp, options, "switched", from.kind);
  r.problem = from.problem;
  r.tests = from.tests;
  r.branch = switch_branch(*from.problem, bp, observed(options_for(from, options), r.name, progress), r.tests);
  return r;
}

// The rates as a flow with no parameter in its state (the cycles' curves
// carry their own two).
std::shared_ptr<const flow::HybridSystem> rates_flow(const RunFile& run) {
  if (run.equations.empty())
    throw StudyError("cycles from an HB need the rates as 'equations' (a built-in model has no flow to shoot)");
  const auto& names = run.system->parameter_names();
  return models::make_expression_ode(run.system->state_names(), names, std::vector<double>(names.size(), 0.0),
                                     run.equations);
}

// The run's settings for cycles from an HB: its "hopf_cycles" key, else the
// defaults over its equations read as rates (every parameter in the state:
// the cycles' start gives the whole parameter vector).
HopfCycles cycle_settings(const BranchResult& from, const std::shared_ptr<const flow::HybridSystem>& rates) {
  const RunFile& run = *from.run;
  if (run.hopf_cycles) return *run.hopf_cycles;
  HopfCycles h;
  h.flow = rates->with_parameters_in_state(run.system->parameter_names());
  h.shooting.autonomous = true;
  h.options = run.options;
  h.options.bounds.clear();
  h.options.eigenvalues = false;
  const auto unknowns = run.system->state_names();
  h.phase = {unknowns[0], unknowns[unknowns.size() > 1 ? 1 : 0]};
  return h;
}

// The cycles born at an HB: the guess from the normal form (analyses/hopf/
// cycle_start.h), corrected and continued away from the HB by shooting.
BranchResult cycles_from(const BranchResult& from, const SpecialPoint& hb, const FromOptions& options,
                         const Progress& progress) {
  if (!(options.amplitude > 0) || !std::isfinite(options.amplitude))
    throw StudyError("'amplitude' = " + std::to_string(options.amplitude) +
                     " must be positive: the first cycle's largest excursion from the equilibrium");
  BranchResult r = derived(from, hb, options, "cycles", BranchKind::kOrbits);
  r.ode = rates_flow(*from.run);
  const HopfCycles hc = cycle_settings(from, r.ode);
  const int k = from.problem->free_parameters()[0];
  const CycleGuess guess = cycle_near_hopf(from.problem->system(), from.problem->u(hb.y), k, options.amplitude);
  const int n = from.problem->state_size();
  const Vector p = guess.u.tail(guess.u.size() - n);
  r.shooting =
      std::make_shared<periodic::ShootingSystem>(hc.flow, static_cast<int>(p.size()), hc.shooting, guess.u);
  r.problem = std::make_shared<const ContinuationProblem>(r.shooting, p, from.run->continuation_parameters);
  Vector y0(n + 2);
  y0 << guess.x, guess.period, p[k];
  ContinuationOptions o = observed(options.options ? *options.options : hc.options, r.name, progress);
  o.direction = guess.offset > 0 ? 1 : -1;  // away from the HB
  r.tests = {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>(),
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
    r.tests.push_back(std::make_shared<OrbitMaximumTest>(
        e.name, [expression](const Vector& z) { return expression.evaluate(z.data()); }, rate, e.stop));
  }
  r.branch = detail::orbit_branch(*r.problem, y0, o, r.tests,
                                  " (a smaller amplitude: 'hopf_cycles.amplitude' in a run file)");
  return r;
}

// The level of a doubled branch: "doubled2" -> 2, any other name 0.
int doubling_level(const std::string& name) {
  if (name.rfind("doubled", 0) != 0) return 0;
  try {
    return std::stoi(name.substr(7));
  } catch (const std::exception&) {
    return 0;
  }
}

BranchResult doubled_from(const BranchResult& from, const SpecialPoint& pd, const FromOptions& options,
                          const Progress& progress) {
  BranchResult r = derived(from, pd, options, "doubled" + std::to_string(doubling_level(from.name) + 1),
                           BranchKind::kOrbits);
  const Vector& p = from.branch.parameters;
  const std::vector<std::string> free = {from.branch.names[from.branch.state_size]};
  const ContinuationProblem at_pd(from.shooting, p, free);
  const periodic::DoubledStart next = periodic::period_doubled(from.shooting, at_pd, pd);
  r.shooting = next.system;
  r.ode = from.ode;
  r.problem = std::make_shared<const ContinuationProblem>(r.shooting, p, free);
  r.tests = from.tests;
  const bool run_doubles = from.run && from.run->periodic && from.run->periodic->doublings > 0;
  ContinuationOptions o = options.options ? *options.options
                          : run_doubles   ? from.run->periodic->doubling_options
                                          : options_for(from, options);
  try {
    r.branch = continue_branch(*r.problem, next.y, observed(o, r.name, progress), r.tests, &next.tangent);
  } catch (const std::runtime_error& e) {
    r.branch = detail::not_started(*r.problem, std::string("the doubled branch could not start: ") + e.what());
  }
  if (r.hybrid)  // each orbit checked as the branch's were (studies/hybrid_study.cpp)
    detail::end_before_stepped_over(
        &r, [&r](const Vector& y) { return detail::stepped_over(*shooting_at(r, y), r.problem->u(y)); });
  return r;
}

// The flow `ode` of the run's rates as one mode of a hybrid system given by
// expressions (models/hybrid_expression.h), whose Taylor passes give the
// tangent-lifted system a curve of cycles needs (exact second derivatives of
// the flow); a built-in model's flow as it is.
std::shared_ptr<const flow::HybridSystem> liftable(const RunFile& run, const flow::HybridSystem& ode) {
  if (run.equations.empty()) return ode.with_parameters({});
  const auto unknowns = ode.state_names();
  Json description = {{"states", unknowns}, {"parameters", Json::object()}, {"modes", Json::object()}};
  for (const auto& info : ode.parameters()) description["parameters"][info.name] = info.value;
  Json field = Json::object();
  for (std::size_t i = 0; i < unknowns.size(); ++i) field[unknowns[i]] = run.equations[i];
  description["modes"]["flow"] = {{"field", field}};
  return models::make_expression_hybrid(description);
}

// The LPC, PD or NS curve of an orbit in two parameters
// (continuation/periodic/cycle_curve.h, ns_curve.h), both carried in the
// shooting problem's state, the others at the branch's values.
BranchResult cycle_curve_from(const BranchResult& from, const SpecialPoint& point, const FromOptions& options,
                              const Progress& progress) {
  if (!from.ode) throw StudyError("branch '" + from.name + "' has no flow to follow a curve of its orbits on");
  BranchResult r = derived(from, point, options, "", BranchKind::kCycleCurve);
  if (options.name.empty())
    r.name = point.type == "PD" ? "pd_curve" : point.type == "LPC" ? "lpc_curve" : "ns_curve";
  std::vector<std::string> names;
  for (const auto& info : from.ode->parameters()) names.push_back(info.name);
  r.parameters = curve_parameters(from, options, names);
  std::map<std::string, double> values;  // the branch's fixed parameters (a cycles branch carries them all)
  for (std::size_t i = 0; i < from.branch.parameter_names.size(); ++i)
    values[from.branch.parameter_names[i]] = from.branch.parameters[static_cast<Eigen::Index>(i)];
  r.ode = from.ode->with_parameters(values);
  const auto hybrid = liftable(*from.run, *r.ode)->with_parameters_in_state(r.parameters);
  const periodic::ShootingOptions so = from.shooting->options();
  const int m = from.shooting->state_size();
  Vector u(m + 2);
  u << point.y, r.ode->parameter(r.parameters[1]);
  Vector reference;
  if (so.autonomous) {
    reference.resize(m + 1);
    reference << u.head(m - 1), u.tail(2);
  }
  const periodic::ShootingSystem shooting(hybrid, 2, so, reference);
  std::shared_ptr<System> system;
  try {
    system = cycle_curve_system(shooting, point.type, &u);
  } catch (const std::exception& e) {
    throw StudyError("the " + point.type + " curve cannot start at " + r.started_from + ": " + e.what());
  }
  r.problem = std::make_shared<const ContinuationProblem>(system, Vector::Constant(1, u[u.size() - 1]),
                                                          std::vector<std::string>{r.parameters[1]});
  r.tests = cycle_curve_tests(point.type);
  ContinuationOptions o = options_for(from, options);
  if (!options.options) o.bounds.clear();  // the branch's bounds are in its own parameter
  r.branch = continue_branch(*r.problem, u, observed(o, r.name, progress), r.tests);
  return r;
}

}  // namespace

namespace detail {

std::vector<std::string> curve_parameters(const BranchResult& from, const FromOptions& options,
                                          const std::vector<std::string>& all) {
  const std::string first = from.branch.names[from.branch.state_size];
  if (!options.parameters.empty()) {
    if (options.parameters.size() != 2 || options.parameters[0] != first)
      throw StudyError("a curve's 'parameters' are two: the branch's parameter '" + first +
                       "' first, then the second one");
    return options.parameters;
  }
  for (const auto& p : all)
    if (p != first) return {first, p};
  throw StudyError("the system has only the parameter '" + first + "': a curve needs a second one");
}

}  // namespace detail

std::shared_ptr<System> cycle_curve_system(const periodic::ShootingSystem& shooting, const std::string& type,
                                           Vector* u) {
  if (type == "NS") {
    const auto ns = std::make_shared<periodic::NeimarkSackerCurveSystem>(shooting, *u);
    *u = ns->start();
    return ns;
  }
  return std::make_shared<periodic::CycleCurveSystem>(
      shooting, type == "LPC" ? periodic::CycleBifurcation::kFold : periodic::CycleBifurcation::kPeriodDoubling, *u);
}

namespace {

std::string what_follows(BranchKind kind) {
  switch (kind) {
    case BranchKind::kSolutions:
      return "LP (fold curve), BP (the other branch)";
    case BranchKind::kEquilibria:
      return "LP (fold curve), BP (the other branch), HB (cycles, or the Hopf curve with to = \"curve\")";
    case BranchKind::kOrbits:
      return "PD (the doubled branch, or the PD curve with to = \"curve\"), LPC and NS (their curves), GR of "
             "hybrid orbits (the grazing curve), CS and SS of Filippov orbits (the crossing-sliding curve)";
    case BranchKind::kFoldCurve:
      return "BT (the Hopf curve)";
    default:
      return "nothing yet";
  }
}

}  // namespace

BranchResult continue_from(const BranchResult& from, const SpecialPoint& point, const FromOptions& options,
                           const Progress& progress) {
  if (!from.problem || (!from.run && !from.hybrid)) throw StudyError("continue_from: branch '" + from.name + "' has no problem");
  if (point.status == EventStatus::kJump)
    throw StudyError(point.label() + " of '" + from.name +
                     "' is a jump of its test function, not a bifurcation: nothing continues from it");
  const std::string& type = point.type;
  const std::string& to = options.to;
  auto refuse = [&](const std::string& why) -> BranchResult {
    throw StudyError("continue_from " + point.label() + " of '" + from.name + "' (" + to_string(from.kind) +
                     "): " + why + "; what follows points of this branch: " + what_follows(from.kind));
  };
  auto expect_to = [&](std::initializer_list<const char*> allowed) {
    if (to.empty()) return;
    for (const char* a : allowed)
      if (to == a) return;
    refuse("'to' = \"" + to + "\" is not a follow-up of " + type);
  };
  const bool on_solutions = from.kind == BranchKind::kSolutions || from.kind == BranchKind::kEquilibria;
  if (on_solutions && type == "LP") return expect_to({"curve"}), fold_curve_from(from, point, options, progress);
  if (on_solutions && type == "BP") return expect_to({"branch"}), switched_from(from, point, options, progress);
  if (from.kind == BranchKind::kEquilibria && type == "HB") {
    expect_to({"cycles", "curve"});
    return to == "curve" ? hopf_curve_from(from, point, options, progress) : cycles_from(from, point, options, progress);
  }
  if (from.kind == BranchKind::kFoldCurve && type == "BT")
    return expect_to({"curve"}), hopf_curve_from(from, point, options, progress);
  if (from.hybrid && from.kind == BranchKind::kOrbits) {
    if (type == "PD" && to != "curve") return expect_to({"doubled"}), doubled_from(from, point, options, progress);
    if (type == "PD" || type == "LPC" || type == "NS" || type == "GR" || type == "CS" || type == "SS")
      return expect_to({"curve"}), detail::hybrid_curve_from(from, point, options, progress);
  }
  if (from.kind == BranchKind::kOrbits && type == "PD") {
    expect_to({"doubled", "curve"});
    return to == "curve" ? cycle_curve_from(from, point, options, progress) : doubled_from(from, point, options, progress);
  }
  if (from.kind == BranchKind::kOrbits && (type == "LPC" || type == "NS"))
    return expect_to({"curve"}), cycle_curve_from(from, point, options, progress);
  return refuse("nothing continues from a " + type + " here");
}

}  // namespace saltus::studies
