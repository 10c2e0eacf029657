#include "analyses/sliding/sliding_curve.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "continuation/flow/forwarding_hybrid_system.h"
#include "continuation/periodic/grazing_orbit.h"
#include "models/filippov_hybrid.h"

namespace saltus::sliding {

namespace {

using filippov::kMinusMode;
using filippov::kPlusMode;
using filippov::kSlidingMode;

// The boundary beyond an arrival: that of the side the orbit would cross
// into, its exit guard of the sliding mode (H(x, +b) into F+, H(x, -b) into
// F-) and the sign that makes phi_CS positive where the orbit crosses (as
// in sliding_bifurcation.cpp's arrivals()).
int beyond(const Arrival& a) { return a.from == kPlusMode ? kMinusMode : kPlusMode; }
int exit_guard(int side) { return side == kPlusMode ? 0 : 1; }
double outward(int side) { return side == kPlusMode ? 1.0 : -1.0; }

// The arrival of `list` from the side `from` nearest in time to `tracked`
// modulo the period, or, with no time tracked yet (NaN; from < 0), the one
// nearest the boundary. The side matters next to the CS-SS-AS point: there
// the slip leaving the crossing lands again a short time after it (3 delta /
// |c| for a fold of curvature delta, c the rate of delta along it), an
// arrival from the other side that could otherwise be the nearest in time
// to a trial point's and take the tracked one's place.
const Arrival* tracked_arrival(const std::vector<Arrival>& list, double tracked, int from, double period) {
  const Arrival* best = nullptr;
  const auto distance = [&](const Arrival& a) {
    return std::isfinite(tracked) ? std::abs(std::remainder(a.t - tracked, period)) : std::abs(a.margin);
  };
  for (const Arrival& a : list)
    if ((from < 0 || a.from == from) && (!best || distance(a) < distance(*best))) best = &a;
  return best;
}

bool one_sided(int mode) { return mode == kPlusMode || mode == kMinusMode; }

// The Filippov flow with the choice at an arrival on the boundary made
// robust. On the curve phi_CS vanishes to rounding, and the simulation's
// choice between crossing and sliding there is the sign of that rounding.
// Either choice is the same orbit (the slide, or the excursion, it adds has
// length zero), but the one whose next event would come at once is not
// simulated right: the simulator takes no event in the instant after one
// (a guard on its surface at the start of a mode is left, not crossed:
// continuation/flow/simulate.cpp), so a slide entered at a visible fold
// never sees its exit and the orbit sticks on (a spurious orbit that the
// corrector can follow). Within `tolerance` of the boundary (|phi_CS| <=
// tolerance (1 + |x|)) the arrival therefore takes the side that needs no
// immediate event: it crosses at a visible fold (delta > 0, CS: the
// one-sided orbit beyond lifts off), and slides at an invisible one
// (delta < 0, SS: the slide moves into the sliding region). The orbit
// differs from the other choice's by the second order of phi_CS (the map is
// C^1 there: sliding_curve.h).
class BoundaryChoice : public flow::ForwardingHybridSystem {
 public:
  BoundaryChoice(std::shared_ptr<const flow::HybridSystem> system, double tolerance)
      : flow::ForwardingHybridSystem(std::move(system)), tolerance_(tolerance) {}
  int next_mode(int mode, int k, double t, const Vector& x) const override {
    const int next = inner().next_mode(mode, k, t, x);
    const int side = mode == kPlusMode ? kMinusMode : kPlusMode;
    if (!one_sided(mode) || (next != kSlidingMode && next != side)) return next;
    const double s = outward(side);
    const double margin = s * inner().guard(kSlidingMode, exit_guard(side), t, x);
    if (!(std::abs(margin) <= tolerance_ * (1.0 + x.lpNorm<Eigen::Infinity>()))) return next;
    Vector f;
    inner().field(kSlidingMode, t, x, &f);
    const double drift = s * inner().guard_rate(kSlidingMode, exit_guard(side), t, x, f);
    return drift > 0 ? side : kSlidingMode;
  }

 private:
  double tolerance_;
};

const CrossingSlidingSystem& curve_of(const PointContext& point) {
  const auto* s = dynamic_cast<const CrossingSlidingSystem*>(&point.problem.system());
  if (!s) throw std::invalid_argument("the CS-SS-AS test needs a curve of crossing-sliding points");
  return *s;
}

}  // namespace

CrossingSlidingSystem::CrossingSlidingSystem(const periodic::ShootingSystem& shooting, const Vector& u)
    : tracked_(std::numeric_limits<double>::quiet_NaN()), tracked_from_(-1) {
  if (shooting.parameter_size() < 2)
    throw std::invalid_argument("crossing-sliding curve: the shooting problem must carry two parameters");
  const auto& options = shooting.options();
  const auto chosen = std::make_shared<const BoundaryChoice>(shooting.hybrid(), 1e-8);
  shooting_ = std::make_shared<periodic::ShootingSystem>(
      chosen, shooting.parameter_size(), options, options.autonomous ? shooting.hybrid_state(u) : Vector());
  if (options.autonomous) shooting_->accept(u);
  const Arrival a = arrival(u, false).arrival;
  tracked_ = a.t;
  tracked_from_ = a.from;
}

std::vector<std::string> CrossingSlidingSystem::state_names() const {
  auto names = shooting_->state_names();
  names.push_back(shooting_->parameter_names().front());
  return names;
}

std::vector<std::string> CrossingSlidingSystem::parameter_names() const {
  const auto names = shooting_->parameter_names();
  return std::vector<std::string>(names.begin() + 1, names.end());
}

BoundaryArrival CrossingSlidingSystem::arrival(const Vector& u, bool gradient) const {
  const flow::HybridSystem& system = *shooting_->hybrid();
  const auto tr = shooting_->trajectory(u, false);
  if (!tr->ok())
    throw std::runtime_error("crossing-sliding curve: the orbit could not be simulated: " + tr->message);
  const double T = shooting_->period(u);
  const std::vector<Arrival> list = arrivals(system, *tr);
  const Arrival* a = tracked_arrival(list, tracked_, tracked_from_, T);
  if (!a)
    throw std::runtime_error("crossing-sliding curve: the orbit does not arrive at the switching surface");
  BoundaryArrival out;
  out.arrival = *a;
  out.sequence = mode_sequence(system, *tr);
  if (!gradient) return out;

  // D = dz(t_c)/du at the fixed time t_c: the variational equations from the
  // cut to t_c with the arrival's guard held off within half the time since
  // the previous event (or the cut), so that the run ends on the arriving side.
  const auto& options = shooting_->options();
  const int q = shooting_->parameter_size();
  const Vector z0 = shooting_->hybrid_state(u);
  const int n = static_cast<int>(z0.size()) - q;
  const double t0 = shooting_->start_time(u);
  const flow::Event& e = tr->events[a->event];
  double previous = t0;
  for (std::size_t i = 0; i < a->event; ++i) previous = std::max(previous, tr->events[i].t);
  if (!(a->t > previous))
    throw std::runtime_error("crossing-sliding curve: the arrival coincides with the event before it");
  const periodic::ContactSuppressed held(
      shooting_->hybrid(), periodic::Contact{e.mode_before, e.guard, a->t, 0.5 * (a->t - previous), T});
  flow::SimulationOptions variational = options.simulation;
  variational.variational = true;
  variational.output_interval = 0.0;
  variational.constant_components = q;
  const flow::Trajectory to = flow::simulate(held, options.mode, t0, z0, a->t, variational);
  if (!to.ok())
    throw std::runtime_error("crossing-sliding curve: the orbit to the arrival could not be simulated: " +
                             to.message);
  const Matrix& Phi = to.transition_matrix;  // (n + q) x (n + q), over z = (x, p)
  Matrix D = Matrix::Zero(n + q, u.size());
  D.leftCols(n) = Phi.leftCols(n);
  D.rightCols(q) = Phi.rightCols(q);  // an autonomous orbit's T (column n) does not move t_c
  if (!options.autonomous && options.period_of) {
    // The cut t0 = phase T(p) moves with p: dz(t_c)/dt0 = -Phi f(t0, z0).
    Vector f0, dT_dp;
    system.field(options.mode, t0, z0, &f0);
    options.period_of(u.tail(q), &dT_dp);
    D.rightCols(q) -= (Phi * f0) * (options.phase * dT_dp.transpose());
  }
  // The arrival time's move and the exit guard's gradient at x_c.
  Vector h_z, f_in, H_z;
  double h_t = 0.0, H_t = 0.0;
  system.guard_gradient(e.mode_before, e.guard, a->t, a->x, &h_z, &h_t);
  system.field(e.mode_before, a->t, a->x, &f_in);
  const int side = beyond(*a);
  system.guard_gradient(kSlidingMode, exit_guard(side), a->t, a->x, &H_z, &H_t);
  const double speed = h_z.dot(f_in) + h_t;  // transversal at an arrival
  const Eigen::RowVectorXd dt_c = -(h_z.transpose() * D) / speed;
  out.gradient = (outward(side) * (H_z.transpose() * D + (H_z.dot(f_in) + H_t) * dt_c)).transpose();
  return out;
}

void CrossingSlidingSystem::residual(const double* u, double* f) const {
  const Vector uu = Eigen::Map<const Vector>(u, size());
  shooting_->residual(u, f);
  f[state_size() - 1] = arrival(uu, false).arrival.margin;
}

void CrossingSlidingSystem::jacobian(const double* u, Matrix* J) const {
  const Vector uu = Eigen::Map<const Vector>(u, size());
  Matrix Js;
  shooting_->jacobian(u, &Js);
  J->resize(state_size(), size());
  J->topRows(Js.rows()) = Js;
  J->row(state_size() - 1) = arrival(uu, true).gradient.transpose();
}

void CrossingSlidingSystem::second_derivative(const double*, const double*, Matrix*) const {
  throw std::logic_error("second derivatives of a crossing-sliding system are not available");
}

void CrossingSlidingSystem::accept(const Vector& u) const {
  shooting_->accept(u);
  const Arrival a = arrival(u, false).arrival;
  tracked_ = a.t;
  tracked_from_ = a.from;
}

namespace {

// The modes of a period's events, segments shorter than `shortest` taken out.
std::string merged_sequence(const flow::HybridSystem& system, const flow::Trajectory& tr, double shortest) {
  std::vector<std::pair<int, int>> modes;  // (before, after) per event
  std::vector<double> times;
  for (const flow::Event& e : tr.events) {
    if (!modes.empty() && e.t - times.back() < shortest && modes.back().second == e.mode_before) {
      modes.back().second = e.mode_after;  // the short segment between them goes
      times.back() = e.t;
      if (modes.back().first == modes.back().second) modes.pop_back(), times.pop_back();
      continue;
    }
    modes.emplace_back(e.mode_before, e.mode_after);
    times.push_back(e.t);
  }
  std::string out;
  for (const auto& [from, to] : modes)
    out += (out.empty() ? "" : "; ") + system.mode_name(from) + " -> " + system.mode_name(to);
  return out.empty() ? "none" : out;
}

}  // namespace

std::string stepped_over_on_curve(const periodic::ShootingSystem& shooting, const Vector& u,
                                  double negligible) {
  flow::SimulationOptions searched = shooting.options().simulation;
  searched.variational = false;
  searched.output_interval = 0.0;
  searched.guard_search = true;
  const double t0 = shooting.start_time(u), T = shooting.period(u);
  const flow::Trajectory check = flow::simulate(*shooting.hybrid(), shooting.options().mode, t0,
                                                shooting.hybrid_state(u), t0 + T, searched);
  if (!check.ok()) return "";
  const flow::HybridSystem& system = *shooting.hybrid();
  const std::string shot = merged_sequence(system, *shooting.trajectory(u, false), negligible * T);
  const std::string searched_sequence = merged_sequence(system, check, negligible * T);
  if (shot == searched_sequence) return "";
  return "(events " + shot +
         ") steps over an event inside one integration step: simulated with every guard " +
         "searched inside its steps, its period has the events " + searched_sequence +
         "; bound the steps ('simulation.max_step') so that the shooting sees it";
}

double CrossingSlidingDriftTest::value(const PointContext& point) const {
  return curve_of(point).arrival(point.problem.u(point.y), false).arrival.drift;
}

bool CrossingSlidingDriftTest::describe(const PointContext& point, SpecialPoint* special) const {
  // Two arrivals trading places as the tracked one give a jump, not a cusp.
  if (special->status == EventStatus::kJump) return false;
  const CrossingSlidingSystem& curve = curve_of(point);
  const BoundaryArrival b = curve.arrival(point.problem.u(point.y), false);
  const flow::HybridSystem& system = *curve.shooting().hybrid();
  auto& d = special->data;
  d["kind"] = "crossing-sliding turning into switching-sliding, where the adding-sliding curve ends";
  nlohmann::ordered_json x = nlohmann::ordered_json::object();
  const std::vector<std::string> names = system.state_names();
  for (int i = 0; i < b.arrival.x.size() && i < static_cast<int>(names.size()); ++i)
    x[names[i]] = b.arrival.x[i];
  d["arrival"] = {{"from", system.mode_name(b.arrival.from)},
                  {"to", system.mode_name(b.arrival.to)},
                  {"t", b.arrival.t},
                  {"x", x}};
  d["margin"] = b.arrival.margin;  // phi_CS: 0 on the curve
  d["drift"] = b.arrival.drift;    // delta: 0 to the location's precision
  d["sequence"] = b.sequence;
  return true;
}

}  // namespace saltus::sliding
