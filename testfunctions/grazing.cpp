#include "testfunctions/grazing.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "continuation/periodic/shooting.h"

namespace saltus {

const GuardMinimum& GuardMinima::smallest() const {
  if (minima.empty()) throw std::logic_error("guard minima: none recorded");
  return *std::min_element(minima.begin(), minima.end(),
                           [](const GuardMinimum& a, const GuardMinimum& b) { return a.value < b.value; });
}

namespace {

// +1 when events come from h > 0, -1 from h < 0; for either direction the
// side the state is on.
double side(flow::Crossing c, double h) {
  return c == flow::Crossing::kFalling ? 1.0 : c == flow::Crossing::kRising ? -1.0 : (h >= 0 ? 1.0 : -1.0);
}

// s = sgn * dh/dt of guard k in a mode, at (t, x): how fast the state
// leaves the guard's surface (the header's s(t)).
double approach_rate(const flow::HybridSystem& system, int mode, int k, double t, const Vector& x) {
  Vector f, h_x;
  double h_t = 0.0;
  system.field(mode, t, x, &f);
  system.guard_gradient(mode, k, t, x, &h_x, &h_t);
  return side(system.crossing(mode, k), system.guard(mode, k, t, x)) * (h_x.dot(f) + h_t);
}

// The events that define the orbit's kind. A chattering sequence that ends
// in permanent contact (impacts of one guard, then an event of that guard
// that changes the mode) loses or gains impacts in its tail along a branch
// as the last rebound crosses the simulator's stick threshold, without any
// tangency: those impacts do not count, the event that ends them does.
std::vector<bool> counted(const std::vector<flow::Event>& events) {
  std::vector<bool> counts(events.size(), true);
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (events[i].mode_after == events[i].mode_before) continue;
    for (std::size_t j = i; j-- > 0;) {
      const flow::Event& e = events[j];
      if (e.guard != events[i].guard || e.mode_after != e.mode_before ||
          e.mode_before != events[i].mode_before)
        break;
      counts[j] = false;
    }
  }
  return counts;
}

std::size_t counted_events(const std::vector<flow::Event>& events) {
  const std::vector<bool> counts = counted(events);
  return static_cast<std::size_t>(std::count(counts.begin(), counts.end(), true));
}

}  // namespace

GuardMinima guard_minima(const periodic::ShootingSystem& shooting, const Vector& u) {
  const flow::HybridSystem& system = *shooting.hybrid();
  const auto& options = shooting.options();
  const Vector z0 = shooting.hybrid_state(u);
  const double t0 = shooting.start_time(u), t1 = t0 + shooting.period(u);
  // The guards of the modes the orbit visits (from the cached shooting
  // trajectory, so no extra run when the engine has just corrected u).
  const auto orbit = shooting.trajectory(u);
  int guards = 0;
  for (int m : orbit->mode) guards = std::max(guards, system.guard_count(m));
  guards = std::max(guards, system.guard_count(options.mode));

  // Sections are functions of (t, x) alone; the observer, called at every
  // sample and after every reset before the sections restart, tells them
  // the current mode.
  int mode = options.mode;
  std::vector<flow::Section> sections;
  for (int k = 0; k < guards; ++k)
    sections.push_back({[&system, &mode, k](double t, const Vector& x) {
                          return k < system.guard_count(mode) ? approach_rate(system, mode, k, t, x) : 1.0;
                        },
                        flow::Crossing::kRising});
  flow::SimulationOptions plain = options.simulation;
  plain.variational = false;
  plain.output_interval = 0.0;
  const flow::SimulationObserver observer = [&mode](double, const Vector&, int m) {
    mode = m;
    return true;
  };
  const flow::Trajectory tr = flow::simulate(system, options.mode, t0, z0, t1, plain, observer, sections);

  GuardMinima out;
  out.status = tr.status;
  out.message = tr.message;
  out.events = counted_events(tr.events);
  // The cut point: for a closed orbit, the ends of the period are one point.
  for (int k = 0; k < system.guard_count(options.mode); ++k) {
    const double h = system.guard(options.mode, k, t0, z0);
    out.minima.push_back({side(system.crossing(options.mode, k), h) * h, t0, options.mode, -1, z0});
  }
  // A segment that starts tangentially on guard k's surface (a release
  // from contact with it: h = 0 and dh/dt = 0 there, h growing like t^2 or
  // t^3) leaves a rounding-level "minimum" of h just after the restart, where
  // s = dh/dt rises through zero from noise. A minimum counts only if h fell
  // to it: from a segment start above the noise level of a constrained
  // position, or leaving the surface at a rate above it (a rebound), or from
  // a sample above it in between.
  const double noise = 10.0 * options.simulation.absolute_tolerance;
  std::size_t event = 0, sample = 0;
  for (const auto& hit : tr.section_hits) {
    const int k = hit.section;
    if (k >= system.guard_count(hit.mode)) continue;
    while (event < tr.events.size() && tr.events[event].t <= hit.t) ++event;
    const double t_start = event > 0 ? tr.events[event - 1].t : t0;
    const Vector& x_start = event > 0 ? tr.events[event - 1].x_after : z0;
    const flow::Crossing crossing = system.crossing(hit.mode, k);
    const auto distance = [&](double t, const Vector& x) {
      const double h = system.guard(hit.mode, k, t, x);
      return side(crossing, h) * h;
    };
    bool fell =
        distance(t_start, x_start) > noise || approach_rate(system, hit.mode, k, t_start, x_start) > noise;
    while (sample < tr.t.size() && tr.t[sample] <= t_start) ++sample;
    for (std::size_t j = sample; !fell && j < tr.t.size() && tr.t[j] < hit.t; ++j)
      fell = tr.mode[j] == hit.mode && distance(tr.t[j], tr.x[j]) > noise;
    if (fell) out.minima.push_back({distance(hit.t, hit.x), hit.t, hit.mode, k, hit.x});
  }
  return out;
}

std::vector<ImpactSpeed> impact_speeds(const flow::HybridSystem& system, const flow::Trajectory& tr) {
  std::vector<ImpactSpeed> out;
  const std::vector<bool> counts = counted(tr.events);
  for (std::size_t i = 0; i < tr.events.size(); ++i) {
    const flow::Event& e = tr.events[i];
    if (!counts[i] || e.mode_after != e.mode_before) continue;
    out.push_back(
        {-approach_rate(system, e.mode_before, e.guard, e.t, e.x_before), e.t, e.mode_before, e.guard, i});
  }
  return out;
}

std::string event_sequence(const flow::HybridSystem& system, const flow::Trajectory& tr) {
  std::string out;
  const std::vector<bool> counts = counted(tr.events);
  for (std::size_t i = 0; i < tr.events.size(); ++i)
    if (counts[i])
      out += (out.empty() ? "" : ";") + system.guard_name(tr.events[i].mode_before, tr.events[i].guard);
  return out.empty() ? "none" : out;
}

std::optional<NearestContact> nearest_contact(const periodic::ShootingSystem& shooting, const Vector& u) {
  const flow::HybridSystem& system = *shooting.hybrid();
  const auto tr = shooting.trajectory(u);
  const double T = shooting.period(u);
  std::optional<NearestContact> best;
  const auto consider = [&](bool impact, double value, int mode, int guard, double t, std::size_t skip) {
    if (best && best->value <= value) return;
    double window = 0.25 * T;
    for (std::size_t i = 0; i < tr->events.size(); ++i)
      if (i != skip && tr->events[i].guard == guard && tr->events[i].mode_before == mode)
        window = std::min(window, 0.5 * std::abs(std::remainder(tr->events[i].t - t, T)));
    best = NearestContact{impact, value, periodic::Contact{mode, guard, t, window, T}};
  };
  for (const ImpactSpeed& s : impact_speeds(system, *tr))
    consider(true, s.speed, s.mode, s.guard, s.t, s.event);
  const GuardMinima m = guard_minima(shooting, u);
  for (const GuardMinimum& g : m.minima)
    if (g.guard >= 0) consider(false, g.value, g.mode, g.guard, g.t, tr->events.size());
  return best;
}

double GrazingTest::value(const PointContext& point) const {
  const auto* shooting = dynamic_cast<const periodic::ShootingSystem*>(&point.problem.system());
  if (!shooting)
    throw std::invalid_argument("the grazing test (GR) needs a branch of periodic orbits (shooting)");
  const GuardMinima m = guard_minima(*shooting, point.problem.u(point.y));
  if (m.status != flow::SimulationStatus::kFinished && m.status != flow::SimulationStatus::kGrazing)
    throw std::runtime_error("grazing test: the orbit could not be simulated: " + m.message);
  const std::size_t events =
      count_ ? count_(*shooting->hybrid(), *shooting->trajectory(point.problem.u(point.y))) : m.events;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!reference_events_) reference_events_ = events;
    if (events != *reference_events_ || m.status == flow::SimulationStatus::kGrazing) return -1.0;
  }
  double value = m.minima.empty() ? 1.0 : m.smallest().value;
  const auto* hybrid = shooting->hybrid().get();
  for (const ImpactSpeed& s : impact_speeds(*hybrid, *shooting->trajectory(point.problem.u(point.y))))
    value = std::min(value, s.speed);
  return value;
}

}  // namespace saltus
