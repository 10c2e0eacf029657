#include "analyses/sliding/sliding_bifurcation.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>

#include "continuation/newton.h"
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
  const int m = shooting.state_size();
  NewtonProblem p;
  const auto full = [&](const Vector& x) {
    Vector u = guess;
    u.head(m) = x;
    return u;
  };
  p.residual = [&](const Vector& x, Vector* F) {
    F->resize(m);
    shooting.residual(problem.u(full(x)).data(), F->data());
  };
  p.jacobian = [&](const Vector& x, Matrix* J) {
    Matrix Jf;
    shooting.jacobian(problem.u(full(x)).data(), &Jf);
    *J = Jf.leftCols(m);
  };
  NewtonOptions o;
  o.residual_tolerance = 1e-11;
  o.max_iterations = 40;
  const NewtonResult r = damped_newton(p, guess.head(m), o);
  *y = full(r.x);
  return r.converged();
}

std::size_t slides(const flow::Trajectory& tr) {
  return static_cast<std::size_t>(std::count_if(
      tr.events.begin(), tr.events.end(), [](const flow::Event& e) { return e.mode_after == kSlidingMode; }));
}

}  // namespace

bool orbit_beyond_grazing_sliding(const ContinuationProblem& problem,
                                  const periodic::ShootingSystem& shooting, const Vector& y_g,
                                  const Vector& tangent, double ds, Vector* start, std::string* why) {
  // The slides of the orbit without the touch: those of y_g just before it along -t.
  std::size_t before = 0;
  {
    Vector y;
    if (!correct_at_parameter(problem, shooting, y_g - ds * tangent, &y)) {
      *why = "the orbit before the grazing-sliding did not converge";
      return false;
    }
    before = slides(*shooting.trajectory(problem.u(y)));
  }
  *why = "no orbit with one sliding segment more or less up to " + std::to_string(std::ldexp(ds, 7)) +
         " from the grazing-sliding on either side";
  for (double side : {1.0, -1.0})
    for (int k = 0; k < 8; ++k) {
      Vector y;
      if (!correct_at_parameter(problem, shooting, y_g + side * std::ldexp(ds, k) * tangent, &y)) continue;
      const std::size_t after = slides(*shooting.trajectory(problem.u(y)));
      if (after != before + 1 && after + 1 != before) continue;
      *start = y;
      return true;
    }
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
