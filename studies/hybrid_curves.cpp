// Curves in two parameters of the special points of hybrid orbits
// (continue_from on a branch of studies/hybrid_study.h), each continued by
// the engine in the second parameter:
//   GR   the grazing system (continuation/periodic/grazing_orbit.h: shooting
//        on the flow without the contact plus "the guard's minimum is zero");
//   LPC, PD  shooting plus the bordered test function of M - I or M + I, with
//        exact second derivatives of the flow (continuation/periodic/
//        cycle_curve.h);
//   NS   shooting plus two entries of the bordered M^2 - 2 kappa M + I
//        (continuation/periodic/ns_curve.h), kappa = cos theta a column;
//   CS, SS  (Filippov orbits) shooting plus "the arrival at Sigma is on the
//        boundary of the sliding region", phi_CS = 0 with its exact gradient
//        (analyses/sliding/sliding_curve.h), CS-SS-AS located on it;
// with the codimension-2 points of testfunctions/cycle_codim2.h located.

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "analyses/sliding/sliding_curve.h"
#include "continuation/periodic/cycle_curve.h"
#include "continuation/periodic/grazing_orbit.h"
#include "continuation/periodic/ns_curve.h"
#include "models/expression.h"
#include "studies/detail.h"
#include "studies/hybrid_study.h"
#include "testfunctions/cycle_codim2.h"

namespace saltus::studies {

namespace {

// T(p1, p2) of a forced model with both parameters carried, and dT/dp
// exactly (a Jet through the forcing-period expression).
std::function<double(const Vector&, Vector*)> period_of_two(const HybridRun& run, const std::string& first_name,
                                                            const std::string& second_name) {
  std::vector<std::string> names;
  std::vector<double> values;
  int first = -1, second = -1;
  for (const auto& p : run.system->parameters()) {
    if (p.name == first_name) first = static_cast<int>(names.size());
    if (p.name == second_name) second = static_cast<int>(names.size());
    names.push_back(p.name);
    values.push_back(p.value);
  }
  const models::Expression period = models::Expression::parse(run.forcing_period_expression, names);
  return [period, values, first, second](const Vector& p, Vector* dT_dp) {
    using J = ceres::Jet<double, 2>;
    std::vector<J> v(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) v[i] = J(values[i]);
    v[first] = J(p[0], 0);
    v[second] = J(p[1], 1);
    const J T = period.evaluate<J>(v.data());
    if (dT_dp) *dT_dp = T.v;
    return T.a;
  };
}

// The shooting problem with both parameters carried; *u = (y, p2) from a
// point y = (x, [T,] p1) of the branch, cut where that point was (the cut
// moves along a branch: ShootingSystem::recut).
periodic::ShootingSystem shooting_in_two(const BranchResult& from, const std::vector<std::string>& parameters,
                                         const Vector& y, Vector* u) {
  const HybridRun& run = *from.hybrid;
  const auto hybrid = run.system->with_parameters_in_state(parameters, run.wrapped_angles);
  periodic::ShootingOptions options = shooting_at(from, y)->options();
  if (options.period_of) options.period_of = period_of_two(run, parameters[0], parameters[1]);
  const int m = from.shooting->state_size();
  u->resize(m + 2);
  *u << y, run.system->parameter(parameters[1]);
  Vector reference;  // (x, p1, p2) for the phase condition of an autonomous orbit
  if (options.autonomous) {
    reference.resize(m + 1);
    reference << u->head(m - 1), u->tail(2);
  }
  return periodic::ShootingSystem(hybrid, 2, options, reference);
}

// The curve's two parameters: given (the branch's first), else the run's
// first "periodic.curve" of the point's kind, else the branch's and the
// model's next one.
std::vector<std::string> hybrid_curve_parameters(const BranchResult& from, const std::string& kind,
                                                 const FromOptions& options) {
  const std::string first = from.branch.names[from.branch.state_size];
  if (options.parameters.empty())
    for (const auto& c : from.hybrid->periodic->curves)
      if (c.kind == kind && c.first == first) return {c.first, c.second};
  std::vector<std::string> names;
  for (const auto& p : from.hybrid->system->parameters()) names.push_back(p.name);
  return detail::curve_parameters(from, options, names);
}

// The run's options for a curve of this kind in these parameters, else the
// branch's without its bounds (they are in its own parameter).
ContinuationOptions hybrid_curve_options(const BranchResult& from, const std::string& kind,
                                         const std::vector<std::string>& parameters, const FromOptions& options) {
  if (options.options) return *options.options;
  for (const auto& c : from.hybrid->periodic->curves)
    if (c.kind == kind && c.first == parameters[0] && c.second == parameters[1]) return c.options;
  ContinuationOptions o = from.branch.options;
  o.callback = nullptr;
  o.bounds.clear();
  return o;
}

// At a GR-PD-LPC point of a grazing curve (testfunctions/grazing_codim2.h),
// the side of it, in the first parameter, where the impacting orbit's PD
// curve lies beside the grazing curve (test value < 0 at the neighbouring
// point) and the side of its LPC curve (> 0).
void add_sides(const std::string& first, int i1, Branch* curve) {
  const auto column = std::find(curve->test_names.begin(), curve->test_names.end(), "GR-PD-LPC");
  if (column == curve->test_names.end()) return;
  const auto k = static_cast<std::size_t>(column - curve->test_names.begin());
  for (auto& sp : curve->special_points) {
    if (sp.type != "GR-PD-LPC" || sp.index < 0) continue;
    for (int j : {sp.index - 1, sp.index + 1}) {
      if (j < 0 || j >= static_cast<int>(curve->points.size()) || curve->points[j].tests.size() <= k) continue;
      const auto& p = curve->points[j];
      std::ostringstream side;
      side << first << (p.y[i1] > sp.y[i1] ? " > " : " < ") << std::setprecision(10) << sp.y[i1];
      sp.data[p.tests[k] < 0 ? "pd_side" : "lpc_side"] = side.str();
    }
  }
}

// The grazing of `from` at the GR point: the crossing located there.
const grazing::GrazingCrossing& crossing_at(const BranchResult& from, const SpecialPoint& gr) {
  for (const auto& c : from.grazings)
    if (c.index == gr.index) return c;
  throw StudyError(gr.label() + " of '" + from.name + "' has no grazing orbit to start a curve from");
}

}  // namespace

std::string curve_kind_text(const std::string& kind) {
  return kind == "GR"    ? "grazing (GR)"
         : kind == "LPC" ? "fold of cycles (LPC)"
         : kind == "NS"  ? "Neimark-Sacker point (NS)"
         : kind == "PD"  ? "period doubling (PD)"
         : kind == "CS"  ? "crossing-sliding (CS)"
         : kind == "SS"  ? "switching-sliding (SS)"
                         : kind;
}

namespace detail {

BranchResult hybrid_curve_from(const BranchResult& from, const SpecialPoint& point, const FromOptions& options,
                               const Progress& progress) {
  const std::string& kind = point.type;
  BranchResult r;
  const bool sliding = kind == "CS" || kind == "SS";
  r.name = options.name.empty() ? (kind == "GR" ? "gr_curve" : kind == "PD" ? "pd_curve"
                                                             : kind == "LPC" ? "lpc_curve"
                                                             : sliding       ? "cs_curve"
                                                                             : "ns_curve")
                                : options.name;
  r.kind = BranchKind::kCycleCurve;
  r.hybrid = from.hybrid;
  r.started_from = point.label() + " of " + from.name;
  r.parameters = hybrid_curve_parameters(from, kind, options);
  std::shared_ptr<System> system;
  Vector u;
  try {
    if (kind == "GR") {
      const grazing::GrazingCrossing& c = crossing_at(from, point);
      const auto shooting = shooting_in_two(from, r.parameters, c.orbit.y, &u);
      system = std::make_shared<periodic::GrazingSystem>(shooting, c.orbit.contact, u);
    } else if (sliding) {
      const auto shooting = shooting_in_two(from, r.parameters, point.y, &u);
      try {
        system = std::make_shared<sliding::CrossingSlidingSystem>(shooting, u);
      } catch (const std::runtime_error& e) {  // no orbit, or no arrival, at the point
        throw std::invalid_argument(e.what());
      }
    } else {
      const auto shooting = shooting_in_two(from, r.parameters, point.y, &u);
      system = cycle_curve_system(shooting, kind, &u);
    }
  } catch (const StudyError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw StudyError("the " + curve_kind_text(kind) + " curve cannot start at " + r.started_from + ": " + e.what());
  } catch (const std::logic_error& e) {
    throw StudyError("model '" + from.hybrid->model + "' cannot give " + kind + " curves: " + e.what());
  }
  r.problem = std::make_shared<const ContinuationProblem>(system, Vector::Constant(1, u[u.size() - 1]),
                                                          std::vector<std::string>{r.parameters[1]});
  r.tests = sliding ? TestFunctions{std::make_shared<sliding::CrossingSlidingDriftTest>()} : cycle_curve_tests(kind);
  const ContinuationOptions o = hybrid_curve_options(from, kind, r.parameters, options);
  r.branch = continue_branch(*r.problem, u, observed(o, r.name, progress), r.tests);
  // Each point's orbit checked as the branch's are (studies/hybrid_study.cpp).
  end_before_stepped_over(&r, [&r, &system](const Vector& y) {
    const Vector v = r.problem->u(y);
    if (const auto* ns = dynamic_cast<const periodic::NeimarkSackerCurveSystem*>(system.get()))
      return stepped_over(ns->shooting(), ns->shooting_point(v));
    if (const auto* cycle = dynamic_cast<const periodic::CycleCurveSystem*>(system.get()))
      return stepped_over(cycle->shooting(), v);
    if (const auto* cs = dynamic_cast<const sliding::CrossingSlidingSystem*>(system.get()))
      return sliding::stepped_over_on_curve(cs->shooting(), v);
    return stepped_over(dynamic_cast<const periodic::GrazingSystem&>(*system).shooting(), v);
  });
  add_sides(r.parameters[0], from.shooting->state_size(), &r.branch);
  return r;
}

}  // namespace detail

}  // namespace saltus::studies
