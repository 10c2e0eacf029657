#include "analyses/sliding/sliding_bifurcation.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <map>
#include <stdexcept>

#include "continuation/newton.h"
#include "continuation/periodic/fixed_parameters.h"
#include "continuation/periodic/shooting.h"
#include "models/filippov_hybrid.h"
#include "testfunctions/grazing.h"

namespace saltus::sliding {

namespace {

using filippov::kMinusMode;
using filippov::kPlusMode;
using filippov::kSlidingMode;

bool one_sided(int mode) { return mode == kPlusMode || mode == kMinusMode; }

// The sliding mode's exit guard into `side` (0: H(x, +b) into F+, 1: H(x, -b) into F-).
int exit_guard(int side) { return side == kPlusMode ? 0 : 1; }

// The sign that makes the exit guard of `side` positive outside the sliding
// region (H(x, +b) > 0 beyond dSigma+, H(x, -b) < 0 beyond dSigma-).
double outward(int side) { return side == kPlusMode ? 1.0 : -1.0; }

// phi and delta of the boundary towards `side` at a point x of Sigma.
void boundary_values(const flow::HybridSystem& system, int side, double t, const Vector& x, double* phi,
                     double* delta) {
  const int k = exit_guard(side);
  const double s = outward(side);
  *phi = s * system.guard(kSlidingMode, k, t, x);
  Vector f;
  system.field(kSlidingMode, t, x, &f);
  *delta = s * system.guard_rate(kSlidingMode, k, t, x, f);
}

const periodic::ShootingSystem& shooting_of(const PointContext& point) {
  const auto* shooting = dynamic_cast<const periodic::ShootingSystem*>(&point.problem.system());
  if (!shooting)
    throw std::invalid_argument(
        "the sliding bifurcation test (CS) needs a branch of periodic orbits (shooting)");
  return *shooting;
}

// The arrival nearest the boundary, or none.
const Arrival* nearest(const std::vector<Arrival>& list) {
  const Arrival* best = nullptr;
  for (const Arrival& a : list)
    if (!best || std::abs(a.margin) < std::abs(best->margin)) best = &a;
  return best;
}

nlohmann::ordered_json pairs(const Eigen::VectorXcd& m) {
  auto list = nlohmann::ordered_json::array();
  for (int i = 0; i < m.size(); ++i) list.push_back({m[i].real(), m[i].imag()});
  return list;
}

}  // namespace

std::vector<Arrival> arrivals(const flow::HybridSystem& system, const flow::Trajectory& tr) {
  std::vector<Arrival> out;
  for (std::size_t i = 0; i < tr.events.size(); ++i) {
    const flow::Event& e = tr.events[i];
    if (!one_sided(e.mode_before) || !(one_sided(e.mode_after) || e.mode_after == kSlidingMode)) continue;
    // The boundary beyond: that of the side the orbit would cross into.
    const int side = e.mode_before == kPlusMode ? kMinusMode : kPlusMode;
    Arrival a;
    a.event = i;
    a.t = e.t;
    a.x = e.x_before;
    a.from = e.mode_before;
    a.to = e.mode_after;
    boundary_values(system, side, e.t, e.x_before, &a.margin, &a.drift);
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<Exit> exits(const flow::HybridSystem& system, const flow::Trajectory& tr) {
  std::vector<Exit> out;
  for (std::size_t i = 0; i < tr.events.size(); ++i) {
    const flow::Event& e = tr.events[i];
    if (e.mode_before != kSlidingMode || !one_sided(e.mode_after)) continue;
    double phi = 0.0, rate = 0.0;
    boundary_values(system, e.mode_after, e.t, e.x_before, &phi, &rate);
    out.push_back({i, e.t, e.x_before, e.mode_after, rate});
  }
  return out;
}

std::string mode_sequence(const flow::HybridSystem& system, const flow::Trajectory& tr) {
  std::string out;
  for (const flow::Event& e : tr.events)
    out +=
        (out.empty() ? "" : "; ") + system.mode_name(e.mode_before) + " -> " + system.mode_name(e.mode_after);
  return out.empty() ? "none" : out;
}

std::size_t sliding_event_count(const flow::HybridSystem&, const flow::Trajectory& tr) {
  const auto& ev = tr.events;
  const auto crossing = [](const flow::Event& e) {
    return one_sided(e.mode_before) && one_sided(e.mode_after);
  };
  const auto entry = [](const flow::Event& e) {
    return one_sided(e.mode_before) && e.mode_after == kSlidingMode;
  };
  std::size_t count = 0;
  for (std::size_t i = 0; i < ev.size(); ++i) {
    if (entry(ev[i])) ++count;
    if (crossing(ev[i]) && !entry(ev[(i + 1) % ev.size()])) ++count;
  }
  return count;
}

double CrossingSlidingTest::value(const PointContext& point) const {
  const periodic::ShootingSystem& shooting = shooting_of(point);
  const auto tr = shooting.trajectory(point.problem.u(point.y));
  const std::vector<Arrival> list = arrivals(*shooting.hybrid(), *tr);
  const Arrival* a = nearest(list);
  return a ? a->margin : 1.0;
}

bool CrossingSlidingTest::describe(const PointContext& point, SpecialPoint* special) const {
  // A sign change between two arrivals trading places as the nearest is no zero.
  if (special->status == EventStatus::kJump) return false;
  const periodic::ShootingSystem& shooting = shooting_of(point);
  const auto tr = shooting.trajectory(point.problem.u(point.y));
  const flow::HybridSystem& system = *shooting.hybrid();
  const std::vector<Arrival> list = arrivals(system, *tr);
  const Arrival* a = nearest(list);
  if (!a) return false;
  special->type = a->drift > 0 ? "CS" : "SS";
  auto& d = special->data;
  d["kind"] = a->drift > 0 ? "crossing-sliding" : "switching-sliding";
  nlohmann::ordered_json x = nlohmann::ordered_json::object();
  const std::vector<std::string> names = system.state_names();
  for (int i = 0; i < a->x.size() && i < static_cast<int>(names.size()); ++i) x[names[i]] = a->x[i];
  d["arrival"] = {
      {"from", system.mode_name(a->from)}, {"to", system.mode_name(a->to)}, {"t", a->t}, {"x", x}};
  d["margin"] = a->margin;  // phi_CS at the located point (0 to the location's precision)
  d["drift"] = a->drift;    // delta: > 0 visible fold (CS), < 0 invisible (SS)
  d["sequence"] = mode_sequence(system, *tr);
  return true;
}

std::string grazing_type(const periodic::ShootingSystem& shooting, const Vector& u,
                         nlohmann::ordered_json* why, double touch_tolerance, double rate_tolerance) {
  const flow::HybridSystem& system = *shooting.hybrid();
  std::string type = "GR";
  // The contact: the smallest guard minimum of a one-sided segment on Sigma.
  const GuardMinima m = guard_minima(shooting, u);
  const GuardMinimum* touch = nullptr;
  for (const GuardMinimum& g : m.minima)
    if (g.guard >= 0 && one_sided(g.mode) && (!touch || g.value < touch->value)) touch = &g;
  const bool touching = touch && touch->value <= touch_tolerance;
  if (touch) {
    // The other side's field at the touch: into Sigma (H- > 0 below, H+ < 0 above) puts it on
    // the boundary of the sliding region.
    const int other = touch->mode == kPlusMode ? kMinusMode : kPlusMode;
    double phi = 0.0, delta = 0.0;
    boundary_values(system, other, touch->t, touch->x, &phi, &delta);
    if (why) {
      (*why)["contact"] = {{"mode", system.mode_name(touch->mode)}, {"t", touch->t}, {"h", touch->value}};
      (*why)["other_side_margin"] = phi;  // < 0: the other field holds the orbit on Sigma there
    }
    if (touching && phi < 0) type = "GS";
  }
  // An exit whose rate vanishes (a cusp), when the orbit touches Sigma nowhere else.
  const auto tr = shooting.trajectory(u);
  for (const Exit& e : exits(system, *tr)) {
    Vector f, g;
    double g_t = 0.0;
    system.field(kSlidingMode, e.t, e.x, &f);
    system.guard_gradient(kSlidingMode, exit_guard(e.to), e.t, e.x, &g, &g_t);
    const double scale = f.norm() * g.norm() + std::abs(g_t);
    if (why) (*why)["exit_rates"].push_back(e.rate);
    if (!touching && scale > 0 && e.rate < rate_tolerance * scale) type = "AS";
  }
  return type;
}

namespace {

// The orbit at the parameter of `guess` (held fixed), by damped Newton on the
// exact shooting Jacobian: y = (x, [T], p), the unknowns all but p.
bool correct_at_parameter(const ContinuationProblem& problem, const periodic::ShootingSystem& shooting,
                          const Vector& guess, Vector* y) {
  NewtonOptions o;
  o.residual_tolerance = 1e-11;
  o.max_iterations = 40;
  const NewtonResult r = periodic::correct_at_fixed_parameters(
      shooting, guess, o, [&](const Vector& point) { return problem.u(point); });
  *y = r.x;
  return r.converged();
}

}  // namespace

std::map<std::pair<int, int>, int> transitions(const flow::Trajectory& tr) {
  std::map<std::pair<int, int>, int> out;
  for (const flow::Event& e : tr.events) ++out[{e.mode_before, e.mode_after}];
  return out;
}

bool orbit_beyond_sliding_bifurcation(const ContinuationProblem& problem,
                                      const periodic::ShootingSystem& shooting, const Vector& y_b,
                                      const Vector& tangent, double ds, Vector* start, std::string* why) {
  // The transitions of the orbit on the side the branch came from: that of y_b just before it along -t.
  std::map<std::pair<int, int>, int> before;
  {
    Vector y;
    if (!correct_at_parameter(problem, shooting, y_b - ds * tangent, &y)) {
      *why = "the orbit before the sliding bifurcation did not converge";
      return false;
    }
    before = transitions(*shooting.trajectory(problem.u(y)));
  }
  *why = "no orbit with another event sequence up to " + std::to_string(std::ldexp(ds, 7)) +
         " from the sliding bifurcation on either side";
  for (double side : {1.0, -1.0})
    for (int k = 0; k < 8; ++k) {
      Vector y;
      if (!correct_at_parameter(problem, shooting, y_b + side * std::ldexp(ds, k) * tangent, &y)) continue;
      const auto tr = shooting.trajectory(problem.u(y));
      if (!tr->ok() || transitions(*tr) == before) continue;
      *start = y;
      return true;
    }
  return false;
}

std::string slide_added(const flow::Trajectory& fewer, const flow::Trajectory& more, int* side) {
  std::map<std::pair<int, int>, int> diff = transitions(more);
  for (const auto& [key, n] : transitions(fewer)) diff[key] -= n;
  std::erase_if(diff, [](const auto& kv) { return kv.second == 0; });
  const auto& ev = more.events;
  for (int s : {kPlusMode, kMinusMode}) {
    if (diff != std::map<std::pair<int, int>, int>{{{kSlidingMode, s}, 1}, {{s, kSlidingMode}, 1}}) continue;
    // The two added events next to each other: (sliding -> s), (s -> sliding) a slide interrupted
    // by an excursion into s (AS); (s -> sliding), (sliding -> s) a slide within a segment of s (GS).
    for (std::size_t i = 0; i < ev.size(); ++i) {
      const flow::Event& a = ev[i];
      const flow::Event& b = ev[(i + 1) % ev.size()];
      *side = s;
      if (a.mode_before == kSlidingMode && a.mode_after == s && b.mode_before == s &&
          b.mode_after == kSlidingMode)
        return "AS";
      if (a.mode_before == s && a.mode_after == kSlidingMode && b.mode_before == kSlidingMode &&
          b.mode_after == s)
        return "GS";
    }
  }
  return "";
}

double sliding_margin(const periodic::ShootingSystem& shooting, const Vector& u, int mode) {
  const GuardMinima m = guard_minima(shooting, u);
  const auto tr = shooting.trajectory(u);
  // guard_minima simulates with the guards searched inside the steps: where it
  // sees an event the shooting's own run did not, the two are not one orbit.
  if (m.status != flow::SimulationStatus::kFinished || m.events != tr->events.size())
    return std::numeric_limits<double>::quiet_NaN();
  double out = std::numeric_limits<double>::infinity();
  for (const GuardMinimum& g : m.minima)
    if (g.mode == mode && (mode == kSlidingMode ? g.guard == 0 || g.guard == 1 : g.guard == 0))
      out = std::min(out, g.value);
  return out;
}

bool locate_slide_added(const ContinuationProblem& problem, const periodic::ShootingSystem& shooting,
                        const Vector& fewer, const Vector& more, int mode, Vector* y_as, double* precision,
                        std::string* why) {
  const auto reference = transitions(*shooting.trajectory(problem.u(fewer)));
  // phi on the side without the excursion, NaN elsewhere (the orbit there has another sequence).
  const auto phi = [&](const Vector& y) {
    const Vector u = problem.u(y);
    if (transitions(*shooting.trajectory(u)) != reference) return std::numeric_limits<double>::quiet_NaN();
    return sliding_margin(shooting, u, mode);
  };
  const int q = static_cast<int>(fewer.size()) - 1;
  Vector y0 = fewer, y1;
  double m0 = phi(y0), m1 = 0.0;
  // The second start: one step of the bracket's width further away from the bifurcation.
  if (!correct_at_parameter(problem, shooting, fewer + (fewer - more), &y1) || !std::isfinite(m1 = phi(y1)) ||
      !std::isfinite(m0) || !(m0 > 0)) {
    *why = "no two orbits without the excursion to start the secant from";
    return false;
  }
  Vector inside = more;  // the nearest orbit known to have the excursion
  for (int it = 0; it < 60; ++it) {
    if (!(m1 != m0)) {
      *why = "the margin does not change between the last two orbits";
      return false;
    }
    // The secant's zero, held inside the bracket [y0, inside] (halfway where it leaves it).
    double s = -m0 / (m1 - m0);
    Vector guess = y0 + s * (y1 - y0);
    const double a = y0[q], b = inside[q];
    if (!((guess[q] - a) * (guess[q] - b) < 0)) guess = 0.5 * (y0 + inside);
    Vector y;
    if (!correct_at_parameter(problem, shooting, guess, &y)) {
      *why = "the orbit at the secant's parameter did not converge";
      return false;
    }
    const double v = phi(y);
    const double step = std::abs(y[q] - y0[q]);
    if (!std::isfinite(v) || v < 0) {
      inside = y;  // beyond the bifurcation: the bracket narrows
    } else {
      y1 = y0, m1 = m0, y0 = y, m0 = v;
    }
    const double width = std::abs(inside[q] - y0[q]);
    if (v == 0 || std::min(step, width) <= 1e-13 * (1 + std::abs(y0[q])) ||
        (std::isfinite(v) && v >= 0 && v < 1e-13)) {
      *y_as = y0;
      *precision = std::min(width, std::max(step, 1e-16));
      return true;
    }
  }
  *why = "the secant on the margin did not converge in 60 steps";
  return false;
}

bool locate_bracketed(const ContinuationProblem& problem, const periodic::ShootingSystem& shooting,
                      Branch* branch, SpecialPoint* special, double tolerance) {
  const auto margin = [&](const Vector& y) {
    const auto tr = shooting.trajectory(problem.u(y));
    const Arrival* a = nearest(arrivals(*shooting.hybrid(), *tr));
    return a ? a->margin : std::numeric_limits<double>::quiet_NaN();
  };
  const auto correct = [&](const Vector& guess, Vector* y) {
    return correct_at_parameter(problem, shooting, guess, y);
  };
  // The second start: the nearest branch point with the special point's sign of phi_CS.
  Vector y0 = special->y, y1;
  double m0 = special->test_value, m1 = 0.0;
  for (int d = 1; d < 4 && y1.size() == 0; ++d)
    for (int i : {special->index - d, special->index + d}) {
      if (i < 0 || i >= static_cast<int>(branch->points.size()) || !branch->points[i].label.empty()) continue;
      // On the special point's cut only (ShootingSystem::recut): the secant runs through states of
      // one section, and `shooting` is the special point's.
      const BranchPoint& p = branch->points[i];
      const double cut = shooting.cut(problem.u(p.y));
      if (std::isfinite(p.cut) && !(std::abs(p.cut - cut) <= 1e-12 * (1 + std::abs(cut)))) continue;
      const double v = margin(branch->points[i].y);
      if (std::isfinite(v) && (v > 0) == (m0 > 0)) {
        y1 = branch->points[i].y;
        m1 = v;
        break;
      }
    }
  std::string why = "no branch point beside it on its side of the zero";
  const int q = static_cast<int>(y0.size()) - 1;
  for (int it = 0; it < 30 && y1.size(); ++it) {
    if (!(m1 != m0)) {
      why = "phi_CS does not change between the last two orbits";
      break;
    }
    const double s = -m0 / (m1 - m0);  // the zero on the line through (y0, m0) and (y1, m1)
    Vector y;
    if (!correct(y0 + s * (y1 - y0), &y)) {
      why = "the orbit at the secant's parameter did not converge";
      break;
    }
    const double v = margin(y);
    const double step = std::abs(y[q] - y0[q]);
    y1 = y0, m1 = m0, y0 = y, m0 = v;
    if (std::abs(v) <= tolerance || step <= 1e-15 * (1 + std::abs(y[q]))) {
      special->y = y;
      special->status = EventStatus::kLocated;
      special->precision = step;
      special->test_value = v;
      special->data["margin"] = v;
      special->data["refinement"] = "located by the secant method on phi_CS after the engine's bracket";
      if (special->index >= 0 && special->index < static_cast<int>(branch->points.size()))
        branch->points[special->index].y = y;
      return true;
    }
  }
  special->data["refinement"] = why;
  return false;
}

void describe_sliding_sides(const ContinuationProblem& problem, const periodic::ShootingSystem& shooting,
                            Branch* branch, double zero) {
  const auto side = [&](int index, nlohmann::ordered_json* out, std::string* sequence) {
    if (index < 0 || index >= static_cast<int>(branch->points.size())) return false;
    const BranchPoint& p = branch->points[index];
    if (!p.label.empty() && p.label != "EP") return false;  // another special point: no orbit of a side
    const Vector u = problem.u(p.y);
    const auto cut = std::isfinite(p.cut) && p.cut != shooting.cut(u) ? shooting.at_cut(p.cut, u) : nullptr;
    const periodic::ShootingSystem& s = cut ? *cut : shooting;
    try {
      *sequence = mode_sequence(*s.hybrid(), *s.trajectory(u));
      const Eigen::VectorXcd mu = periodic::floquet_multipliers(s.monodromy(u));
      int zeros = 0;
      for (int i = 0; i < mu.size(); ++i) zeros += std::abs(mu[i]) < zero;
      *out = {{"parameter", p.y[p.y.size() - 1]}, {"multipliers", pairs(mu)}, {"zero_multipliers", zeros}};
    } catch (const std::exception& e) {
      *out = {{"message", e.what()}};
    }
    return true;
  };
  for (SpecialPoint& sp : branch->special_points) {
    if (sp.type != "CS" && sp.type != "SS" && sp.type != "GS" && sp.type != "AS") continue;
    nlohmann::ordered_json before, after;
    std::string sb, sa;
    if (side(sp.index - 1, &before, &sb)) {
      sp.data["sequence_before"] = sb;
      sp.data["before"] = before;
    }
    if (side(sp.index + 1, &after, &sa)) {
      sp.data["sequence_after"] = sa;
      sp.data["after"] = after;
    }
  }
}

}  // namespace saltus::sliding
