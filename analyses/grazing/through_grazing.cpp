#include "analyses/grazing/through_grazing.h"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "continuation/periodic/fixed_parameters.h"
#include "testfunctions/grazing.h"

namespace saltus::grazing {

namespace {

using periodic::ShootingSystem;

struct Counted {
  std::string sequence;
  std::size_t events = 0;
};

Counted counted(const ShootingSystem& shooting, const Vector& u) {
  const auto tr = shooting.trajectory(u, false);
  const std::string s = event_sequence(*shooting.hybrid(), *tr);
  return {s, s == "none" ? 0 : static_cast<std::size_t>(std::count(s.begin(), s.end(), ';')) + 1};
}

std::string sequence_or_failure(const ShootingSystem& shooting, const Vector& u) {
  try {
    return counted(shooting, u).sequence;
  } catch (const std::exception&) {
    return "";  // the grazing orbit itself may touch its guard
  }
}

NewtonOptions grazing_newton() {
  NewtonOptions o;
  o.residual_tolerance = 1e-11;
  o.max_iterations = 40;
  return o;
}

// Where the segment ended at (or approaching) a grazing: the point to
// solve the grazing system from, with its contact. The engine's GR point
// (and its branch point) is dropped: the exact one replaces it.
std::optional<std::pair<Vector, periodic::Contact>> grazing_start(const ShootingSystem& shooting, Branch* seg,
                                                                  std::size_t gr_test) {
  Vector from;
  if (seg->stop_reason == StopReason::kUserStop && !seg->special_points.empty() &&
      seg->special_points.back().type == "GR") {
    const SpecialPoint sp = seg->special_points.back();
    seg->special_points.pop_back();
    seg->points.erase(seg->points.begin() + sp.index);
    from = sp.y;
  } else if ((seg->stop_reason == StopReason::kStepTooSmall ||
              seg->stop_reason == StopReason::kEvaluationError) &&
             seg->points.size() >= 3) {
    // Approaching from the impacting side: the test (the slowest impact)
    // falling over the last points.
    const auto& p = seg->points;
    const std::size_t k = p.size();
    if (!(p[k - 1].tests[gr_test] < p[k - 2].tests[gr_test] &&
          p[k - 2].tests[gr_test] < p[k - 3].tests[gr_test]))
      return std::nullopt;
    from = p.back().y;
  } else {
    return std::nullopt;
  }
  const auto contact = nearest_contact(shooting, from);
  if (!contact) return std::nullopt;
  return std::make_pair(from, contact->contact);
}

// The unit kernel vector of the virtual flow's shooting Jacobian at y, along `along`.
Eigen::VectorXcd multipliers(const ShootingSystem& shooting, const Vector& u) {
  const Matrix M = shooting.monodromy(u);
  return shooting.options().autonomous ? periodic::nontrivial_multipliers(M)
                                       : periodic::floquet_multipliers(M);
}

Vector smooth_tangent(const periodic::GrazingSystem& g, const Vector& y, const Vector& along) {
  Matrix J;
  g.shooting().jacobian(y.data(), &J);
  Eigen::JacobiSVD<Matrix> svd(J, Eigen::ComputeFullV);
  Vector t = svd.matrixV().col(J.cols() - 1);
  return t.dot(along) < 0 ? Vector(-t) : t;
}

// Where the orbit without the contact (at u) enters the guard inside the
// contact's window: the guess of the impacting orbit cut at its impact
// (a guess at the grazing itself, v_n = 0, sits on the kink of a reset
// that applies the impact law only to an approach). False when it does not enter.
bool entry_point(const ShootingSystem& real, const periodic::GrazingSystem& g, const Vector& u, Vector* z,
                 double* tau) {
  const ShootingSystem& sh = g.shooting();
  const periodic::Contact c = g.suppressed().contact();
  const flow::HybridSystem& system = *real.hybrid();
  int mode = sh.options().mode;
  const std::vector<flow::Section> sections = {
      {[&](double t, const Vector& x) {
         if (!g.suppressed().suppressed(mode, c.guard, t)) return 1.0;
         const double h = system.guard(mode, c.guard, t, x);
         return periodic::guard_side(system.crossing(mode, c.guard), h) * h;
       },
       flow::Crossing::kFalling}};
  const flow::SimulationObserver observer = [&mode](double, const Vector&, int m) {
    mode = m;
    return true;
  };
  flow::SimulationOptions plain = sh.options().simulation;
  plain.variational = false;
  plain.output_interval = 0.0;
  const double t0 = sh.start_time(u);
  const flow::Trajectory tr = flow::simulate(g.suppressed(), sh.options().mode, t0, sh.hybrid_state(u),
                                             t0 + sh.period(u), plain, observer, sections);
  for (const auto& hit : tr.section_hits)
    if (hit.mode == c.mode && std::abs(std::remainder(hit.t - c.t, c.period)) < 0.99 * c.window) {
      *z = hit.x;
      *tau = hit.t;
      return true;
    }
  return false;
}

// The first point of the branch beyond the grazing, or a message.
bool start_beyond(const ShootingSystem& shooting, const GrazingCrossing& c, const Vector& along, double ds,
                  std::size_t events_before, Vector* start, std::string* why) {
  const periodic::GrazingSystem g(shooting, c.orbit.contact, c.orbit.y);
  const Vector t = smooth_tangent(g, c.orbit.y, along);
  const double dm = g.minimum(c.orbit.y, true).gradient.dot(t);
  // The new side: the contact no event (m > 0) after an impact vanished,
  // the orbit through the guard (m < 0) where an impact appears.
  const double side = (c.impact_vanishes ? 1.0 : -1.0) * (dm > 0 ? 1.0 : -1.0);
  const std::size_t expected = c.impact_vanishes ? events_before - 1 : events_before + 1;
  // An impact slower than the integration's steps can resolve is missed by
  // the time-T map (its excursion through the guard lasts ~ 2 v_n / a): the
  // first impacting orbit is taken at distances ds, 2 ds, 4 ds, ... until
  // shooting sees it, each solved cut at its impact first.
  // Where an impact appears, the impacting orbit lives on the side where
  // the orbit without it passes through the guard (persistence) or on the
  // other (a non-smooth fold, the branch turning back): the side whose
  // orbit cut at the impact has a positive normal speed.
  const int sides = c.impact_vanishes || shooting.options().autonomous ? 1 : 2;
  std::string hint;  // the impacting orbit exists, but shooting misses its impact: what to do
  for (int s = 0; s < sides; ++s) {
    Vector z = c.orbit.z;
    double tau = c.orbit.contact.t;
    for (int k = 0; k < 8; ++k) {
      const Vector trial = c.orbit.y + (s == 0 ? side : -side) * std::ldexp(ds, k) * t;
      Vector guess = trial;
      if (sides == 2 && !entry_point(shooting, g, trial, &z, &tau) && k == 0) {
        // No entry: start just before the touch, where the orbit still approaches.
        const double eps = 1e-3 * shooting.period(c.orbit.y);
        Vector f;
        shooting.hybrid()->field(c.orbit.contact.mode, tau, z, &f);
        z -= eps * f;
        tau -= eps;
      }
      if (sides == 2 && !periodic::impacting_orbit_near(shooting, c.orbit.contact, &z, &tau,
                                                        trial[trial.size() - 1], &guess, why))
        break;
      const NewtonResult r = periodic::correct_at_fixed_parameters(shooting, guess, grazing_newton());
      if (!r.converged()) {
        *why = "no orbit with the new event sequence up to " + std::to_string(std::ldexp(ds, k)) +
               " beyond the grazing (Newton: " + to_string(r.status) + ")";
        continue;
      }
      const Counted after = counted(shooting, r.x);
      if (after.events != expected) {
        *why = "the orbit beyond the grazing has the events " + after.sequence + ", not one " +
               (c.impact_vanishes ? "less" : "more") + " than " + c.before;
        // The orbit cut at its impact was found, but the time-T map from it
        // does not see that impact: a flow the integrator follows in long
        // steps (a ballistic flight is exactly quadratic) passes through the
        // guard and back inside one step.
        if (!c.impact_vanishes && counted(shooting, guess).events < expected)
          hint = *why +
                 " (the simulation does not see the new slow impact: it passes through the guard and "
                 "back within one integration step; bound the steps with 'simulation.max_step', say a "
                 "hundredth of the period)";
        continue;
      }
      *start = r.x;
      return true;
    }
  }
  if (!hint.empty()) *why = hint;
  return false;
}

void append(Branch* all, std::vector<std::string>* sequences, Branch seg, const ShootingSystem& shooting,
            const ContinuationProblem& problem) {
  const int offset = static_cast<int>(all->points.size());
  for (auto& sp : seg.special_points) {
    sp.index += offset;
    all->special_points.push_back(std::move(sp));
  }
  for (auto& p : seg.points) {
    // Each point on the cut it was computed on (the cut moves: ShootingSystem::recut).
    const Vector u = problem.u(p.y);
    const auto cut = std::isfinite(p.cut) && p.cut != shooting.cut(u) ? shooting.at_cut(p.cut, u) : nullptr;
    sequences->push_back(p.label == "GR" ? "" : sequence_or_failure(cut ? *cut : shooting, u));
    all->points.push_back(std::move(p));
  }
  all->stop_reason = seg.stop_reason;
  all->message = seg.message;
}

std::string format_point(const ContinuationProblem& problem, const Vector& y) {
  std::ostringstream o;
  o.precision(10);
  const auto names = problem.names();
  o << names.back() << " = " << y[y.size() - 1];
  return o.str();
}

}  // namespace

nlohmann::ordered_json crossing_json(const GrazingCrossing& c, const flow::HybridSystem& system) {
  nlohmann::ordered_json j;
  j["sequence_before"] = c.before;
  j["sequence_after"] = c.after;
  j["kind"] = c.impact_vanishes ? "impact vanishes" : "impact appears";
  j["contact"] = {{"mode", system.mode_name(c.orbit.contact.mode)},
                  {"guard", system.guard_name(c.orbit.contact.mode, c.orbit.contact.guard)},
                  {"t", c.orbit.contact.t}};
  auto mu = nlohmann::ordered_json::array();
  for (int i = 0; i < c.smooth_multipliers.size(); ++i)
    mu.push_back({c.smooth_multipliers[i].real(), c.smooth_multipliers[i].imag()});
  j["smooth_side_multipliers"] = mu;
  const auto pairs = [](const Eigen::VectorXcd& m) {
    auto list = nlohmann::ordered_json::array();
    for (int i = 0; i < m.size(); ++i) list.push_back({m[i].real(), m[i].imag()});
    return list;
  };
  j["before"] = {{"parameter", c.before_parameter}, {"multipliers", pairs(c.before_multipliers)}};
  if (c.continued)
    j["after"] = {{"parameter", c.after_parameter}, {"multipliers", pairs(c.after_multipliers)}};
  j["newton_residual"] = c.orbit.residual;
  j["continued"] = c.continued;
  if (!c.message.empty()) j["message"] = c.message;
  return j;
}

ThroughGrazing continue_through_grazing(const ContinuationProblem& problem, const Vector& y0,
                                        const ContinuationOptions& options,
                                        const std::function<TestFunctions()>& tests, bool go_on,
                                        int max_crossings) {
  const auto* shooting = dynamic_cast<const ShootingSystem*>(&problem.system());
  if (!shooting || shooting->parameter_size() != 1)
    throw std::invalid_argument("through grazing: a branch of periodic orbits in one carried parameter");
  ThroughGrazing out;
  Vector y = y0;
  ContinuationOptions opts = options;
  for (int crossing = 0;; ++crossing) {
    const TestFunctions set = tests();
    std::size_t gr_test = set.size();
    for (std::size_t k = 0; k < set.size(); ++k)
      if (set[k]->type() == "GR") gr_test = k;
    Branch seg = continue_branch(problem, y, opts, set);
    const bool first = out.branch.points.empty();
    if (first) {
      out.branch = seg;
      out.branch.points.clear();
      out.branch.special_points.clear();
    }
    const Branch engine = seg;  // kept when the exact location fails
    const auto start = gr_test < set.size() ? grazing_start(*shooting, &seg, gr_test) : std::nullopt;
    GrazingCrossing c;
    if (start) c.orbit = periodic::locate_grazing(*shooting, start->first, start->second, grazing_newton());
    const Vector along = seg.points.empty() ? Vector() : seg.points.back().tangent;
    const Vector last = seg.points.empty() ? y : seg.points.back().y;
    const bool located = start && c.orbit.ok && !(along.size() && along.dot(c.orbit.y - last) < 0);
    if (!located) {
      Branch kept = engine;
      if (start && !kept.special_points.empty() && kept.special_points.back().type == "GR")
        kept.special_points.back().data["exact_location"] =
            c.orbit.ok ? "the grazing system's solution lies behind the branch" : c.orbit.message;
      append(&out.branch, &out.sequences, std::move(kept), *shooting, problem);
      break;
    }
    append(&out.branch, &out.sequences, std::move(seg), *shooting, problem);
    const auto contact = nearest_contact(*shooting, last);
    c.impact_vanishes = contact && contact->impact;
    c.before = out.sequences.empty() ? "" : out.sequences.back();
    c.before_index = static_cast<int>(out.branch.points.size()) - 1;
    c.before_multipliers = multipliers(*shooting, last);
    c.before_parameter = last[last.size() - 1];
    {
      const periodic::GrazingSystem g(*shooting, c.orbit.contact, c.orbit.y);
      c.smooth_multipliers = multipliers(g.shooting(), c.orbit.y);
    }
    BranchPoint at;
    at.y = c.orbit.y;
    at.tangent = along.size() ? along : Vector::Zero(y.size());
    at.ds = (c.orbit.y - last).norm();
    at.label = "GR";
    at.cut = shooting->cut(problem.u(c.orbit.y));
    // The test functions are not evaluated at the grazing orbit (it touches
    // its guard): NaN, but the grazing test's own zero.
    at.tests.assign(out.branch.test_names.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t k = 0; k < at.tests.size(); ++k)
      if (out.branch.test_names[k] == "GR") at.tests[k] = 0.0;
    SpecialPoint sp;
    sp.type = sp.name = "GR";
    sp.y = c.orbit.y;
    sp.tangent = at.tangent;
    sp.status = EventStatus::kLocated;
    sp.precision = c.orbit.residual;
    c.index = sp.index = static_cast<int>(out.branch.points.size());
    out.branch.points.push_back(at);
    out.sequences.push_back(c.before);
    out.branch.stop_reason = StopReason::kUserStop;
    out.branch.message = "reached GR at " + format_point(problem, c.orbit.y);

    Vector next;
    if (go_on && crossing < max_crossings) {
      const std::size_t before_events = counted(*shooting, last).events;
      c.continued = start_beyond(*shooting, c, along, std::abs(options.ds), before_events, &next, &c.message);
    } else if (go_on) {
      c.message = "max crossings reached";
    }
    if (c.continued) {
      c.after = counted(*shooting, next).sequence;
      c.after_multipliers = multipliers(*shooting, next);
      c.after_parameter = next[next.size() - 1];
    }
    out.sequences.back() = c.before + " -> " + (c.continued ? c.after : "(not followed)");
    if (c.continued) c.message.clear();
    sp.data = crossing_json(c, *shooting->hybrid());
    out.branch.special_points.push_back(sp);
    if (c.continued) c.after_index = c.index + 1;
    out.crossings.push_back(c);
    if (!c.continued) break;
    y = next;
    opts.direction = next[next.size() - 1] >= c.orbit.y[c.orbit.y.size() - 1] ? 1 : -1;
  }
  return out;
}

}  // namespace saltus::grazing
