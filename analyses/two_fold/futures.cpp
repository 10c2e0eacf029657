#include "analyses/two_fold/futures.h"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "continuation/flow/simulate.h"

namespace saltus {

namespace {

std::string str(double x) {
  std::ostringstream out;
  out << std::setprecision(6) << x;
  return out.str();
}

}  // namespace

std::string FuturesOptions::check() const {
  const struct {
    const char* name;
    double value;
  } positive[] = {{"approach_radius", approach_radius},
                  {"arrival_distance", arrival_distance},
                  {"approach_time", approach_time},
                  {"escape_radius", escape_radius},
                  {"lift_offset", lift_offset},
                  {"simulate_time", simulate_time},
                  {"absolute_tolerance", absolute_tolerance},
                  {"relative_tolerance", relative_tolerance},
                  {"max_step", max_step},
                  {"event_tolerance", event_tolerance}};
  for (const auto& p : positive)
    if (!(p.value > 0.0 && std::isfinite(p.value)))
      return std::string(p.name) + " = " + str(p.value) + " must be finite and > 0";
  if (!(max_liftoff_time >= 0.0 && std::isfinite(max_liftoff_time)))
    return "max_liftoff_time = " + str(max_liftoff_time) + " must be finite and >= 0";
  // Every sampled orbit is a simulation kept for the figure: a million is
  // hours and gigabytes, far beyond a picture (10^9 ran silent for ever).
  constexpr int kMaxSamples = 100000;
  const auto count = [](const char* name, int value, int most) -> std::string {
    if (value >= 1 && value <= most) return {};
    return std::string(name) + " = " + std::to_string(value) + " must be in [1, " + std::to_string(most) +
           "]";
  };
  if (std::string bad = count("approach_samples", approach_samples, kMaxSamples); !bad.empty()) return bad;
  if (std::string bad = count("samples", samples, kMaxSamples); !bad.empty()) return bad;
  if (std::string bad = count("event_samples", event_samples, 1000); !bad.empty()) return bad;
  if (max_segments < 1) return "max_segments = " + std::to_string(max_segments) + " must be >= 1";
  if (!(arrival_distance < approach_radius))
    return "arrival_distance = " + str(arrival_distance) +
           " must be below approach_radius = " + str(approach_radius);
  if (const std::string bad = filippov.check(); !bad.empty()) return "filippov: " + bad;
  return {};
}

std::string segment_name(SegmentKind k) {
  switch (k) {
    case SegmentKind::kSliding:
      return "sliding";
    case SegmentKind::kEscaping:
      return "escaping";
    case SegmentKind::kSlipPlus:
      return "slip+";
    case SegmentKind::kSlipMinus:
      return "slip-";
  }
  return "?";
}

namespace detail {

namespace {

using filippov::kEscapingMode;
using filippov::kMinusMode;
using filippov::kPlusMode;
using filippov::kSlidingMode;
// The adapter's mode after the Filippov flow's five: the run has ended (an
// approach, an escaping segment or a future); no field, no guards.
constexpr int kStopMode = 5;

double distance(const Vector& a, const Vector& b) { return (a - b).norm(); }

// H+ = h_x . f(x, +mu) and H- = h_x . f(x, -mu): the guards of the Filippov
// flow's escaping mode. (Its sliding mode leaves at the stick bound b >= mu
// of a model with static friction; the regions (17), (18) are those of mu.)
void lies(const FilippovCallbacks& cb, const Vector& x, double* plus, double* minus) {
  *plus = cb.flow->guard(kEscapingMode, 0, 0.0, x);
  *minus = cb.flow->guard(kEscapingMode, 1, 0.0, x);
}

// Where a slip reaches Sigma: the point there (projected onto Sigma) and
// what follows (Piiroinen & Kuznetsov): a crossing into the side both fields
// point to, sliding (17) where they point at each other, else a stop (the
// barrier's zero, a tangency, the escaping region), with the reason.
struct Hit {
  Vector x;
  int next = kStopMode;
  std::string why;
};

Hit hit_sigma(const FilippovCallbacks& cb, const FuturesOptions& options, const Vector& x_before) {
  Hit hit;
  hit.x = cb.project(x_before);
  if (cb.barrier) {
    if (const double g = cb.barrier(hit.x); std::abs(g) <= options.barrier_tolerance) {
      hit.why = "reached Sigma where the barrier function vanishes (" + str(g) +
                "): the model is not defined beyond";
      return hit;
    }
  }
  double hp, hm;
  lies(cb, hit.x, &hp, &hm);
  if (hp > 0.0 && hm > 0.0) {
    hit.next = kPlusMode;
    hit.why = "crossed upward";
  } else if (hp < 0.0 && hm < 0.0) {
    hit.next = kMinusMode;
    hit.why = "crossed downward";
  } else if (hp < 0.0 && hm > 0.0) {
    hit.next = kSlidingMode;
    hit.why = "entered the sliding region";
  } else {
    hit.why =
        "reached Sigma at a tangency or in the escaping region (H+ = " + str(hp) + ", H- = " + str(hm) + ")";
  }
  return hit;
}

// The first point of a slip into `side` (+1: h > 0) from x on Sigma:
// x + side lift_offset h_x / |h_x|.
Vector lift(const FilippovCallbacks& cb, const FuturesOptions& options, const Vector& x, int side) {
  return x + side * options.lift_offset * cb.gradient(x).normalized();
}

// The futures' hybrid system: the Filippov flow's modes F+ and F- (guard
// h), sliding (guards H+, H- and, when arrival > 0, |x - x*| - arrival) and
// escaping (H+, H-), and kStopMode.
// `terminal`: every event stops the run (an approach, an escaping segment).
// Otherwise the events of a future: a slip that reaches Sigma goes on as
// hit_sigma() says; a sliding orbit at H+ = 0 (H- = 0) slips into h > 0
// (h < 0), at the arrival it stops. The reset is the projection onto Sigma,
// lifted off by lift_offset into the side of a slip that follows. Simulated
// without variational equations (the projection's Jacobian is not needed).
class FutureFlow final : public flow::HybridSystem {
 public:
  FutureFlow(const FilippovCallbacks& cb, const FuturesOptions& options, const Vector& x_star, double arrival,
             bool terminal)
      : cb_(cb), options_(options), x_star_(x_star), arrival_(arrival), terminal_(terminal) {}

  int dimension() const override { return cb_.flow->dimension(); }
  std::vector<std::string> state_names() const override { return cb_.flow->state_names(); }
  std::string mode_name(int mode) const override {
    return mode == kStopMode ? "stopped" : cb_.flow->mode_name(mode);
  }
  void field(int mode, double t, const Vector& x, Vector* f) const override {
    if (mode == kStopMode)
      f->setZero(dimension());
    else
      cb_.flow->field(mode, t, x, f);
  }
  void field_jacobian(int, double, const Vector&, Matrix*) const override { no_variations(); }

  int guard_count(int mode) const override {
    switch (mode) {
      case kPlusMode:
      case kMinusMode:
        return 1;
      case kSlidingMode:
        return arrival_ > 0.0 ? 3 : 2;
      case kEscapingMode:
        return 2;
      default:
        return 0;
    }
  }
  std::string guard_name(int mode, int k) const override {
    if (mode == kPlusMode || mode == kMinusMode) return "h = 0";
    return k == 0 ? "H+ = 0" : k == 1 ? "H- = 0" : "|x - x*| = arrival_distance";
  }
  // The Filippov flow's directions: h falls (F+) or rises (F-) to Sigma; a
  // sliding orbit leaves as H+ rises or H- falls to 0, an escaping one as
  // H+ falls or H- rises to 0; the distance to x* falls to arrival.
  flow::Crossing crossing(int mode, int k) const override {
    return k == 2 ? flow::Crossing::kFalling : cb_.flow->crossing(mode, k);
  }
  double guard(int mode, int k, double t, const Vector& x) const override {
    if (mode == kPlusMode || mode == kMinusMode) return cb_.flow->guard(mode, 0, t, x);  // h
    if (k == 2) return distance(x, x_star_) - arrival_;
    return cb_.flow->guard(kEscapingMode, k, t, x);  // H+, H- (see lies())
  }
  void guard_gradient(int, int, double, const Vector&, Vector*, double*) const override { no_variations(); }
  // The guards' rates along f (the simulator's search inside a step): those
  // of the Filippov flow's h, H+ and H-, and d|x - x*|/dt = (x - x*) . f / |x - x*|.
  double guard_rate(int mode, int k, double t, const Vector& x, const Vector& f) const override {
    if (mode == kPlusMode || mode == kMinusMode) return cb_.flow->guard_rate(mode, 0, t, x, f);
    if (k == 2) {
      const double d = distance(x, x_star_);
      return d > 0.0 ? (x - x_star_).dot(f) / d : 0.0;
    }
    return cb_.flow->guard_rate(kEscapingMode, k, t, x, f);
  }

  int next_mode(int mode, int k, double, const Vector& x) const override {
    if (terminal_) return kStopMode;
    if (mode == kPlusMode || mode == kMinusMode) return hit_sigma(cb_, options_, x).next;
    if (mode == kSlidingMode && k < 2) return k == 0 ? kPlusMode : kMinusMode;
    return kStopMode;
  }
  void reset(int, int, int, double, const Vector&, Vector*, Matrix*, Vector*) const override {
    no_variations();
  }
  void reset_state(int, int, int next, double, const Vector& x, Vector* x_plus) const override {
    if (next == kStopMode) {
      *x_plus = x;
      return;
    }
    const Vector on = cb_.project(x);
    *x_plus = next == kSlidingMode ? on : lift(cb_, options_, on, next == kPlusMode ? +1 : -1);
  }

 private:
  [[noreturn]] static void no_variations() {
    throw std::logic_error("futures: simulated without variational equations (no Jacobians)");
  }

  const FilippovCallbacks& cb_;
  const FuturesOptions& options_;
  const Vector& x_star_;
  const double arrival_;
  const bool terminal_;
};

// flow::simulate with the futures' integrator options (dopri5, as before),
// stopped as soon as the run enters kStopMode.
flow::Trajectory run(const FutureFlow& system, int mode, double t0, const Vector& x0, double t1,
                     const FuturesOptions& options, int max_events = 1000000) {
  if (!x0.allFinite()) {
    flow::Trajectory failed;
    failed.status = flow::SimulationStatus::kStepFailed;
    failed.message = "the state is not finite at t = " + str(t0);
    failed.t = {t0};
    failed.x = {x0};
    failed.mode = {mode};
    failed.t_end = t0;
    failed.x_end = x0;
    failed.mode_end = mode;
    return failed;
  }
  flow::SimulationOptions sim;
  sim.method = flow::IntegrationMethod::kDopri5;
  sim.absolute_tolerance = options.absolute_tolerance;
  sim.relative_tolerance = options.relative_tolerance;
  sim.initial_step = std::min(1e-4, options.max_step);
  sim.max_step = options.max_step;
  sim.event_tolerance = options.event_tolerance;
  sim.event_samples = options.event_samples;
  sim.variational = false;
  sim.max_events = max_events;
  return flow::simulate(system, mode, t0, x0, t1, sim,
                        [](double, const Vector&, int mode_now) { return mode_now != kStopMode; });
}

bool failed(const flow::Trajectory& run) {
  return run.status != flow::SimulationStatus::kFinished && run.status != flow::SimulationStatus::kStopped;
}
// The guard of the last event, -1 when none.
int last_event(const flow::Trajectory& run) { return run.events.empty() ? -1 : run.events.back().guard; }

SegmentKind kind_of(int mode) {
  switch (mode) {
    case kPlusMode:
      return SegmentKind::kSlipPlus;
    case kMinusMode:
      return SegmentKind::kSlipMinus;
    case kEscapingMode:
      return SegmentKind::kEscaping;
    default:
      return SegmentKind::kSliding;
  }
}

// Records i and i + 1 of the run are event e's x- and x+.
bool at_event(const flow::Trajectory& run, std::size_t i, std::size_t e) {
  if (e >= run.events.size() || i + 1 >= run.t.size()) return false;
  const flow::Event& event = run.events[e];
  return run.t[i] == event.t && run.t[i + 1] == event.t && run.mode[i] == event.mode_before &&
         run.mode[i + 1] == event.mode_after && run.x[i] == event.x_before && run.x[i + 1] == event.x_after;
}

// The run cut at its events (an event's records x- and x+ end one segment
// and start the next). An event at a step's end (h within rounding of 0
// there) repeats that sample: kept once. The one-point segment after the
// last event of a run that stopped there (kStopMode, max_events) is dropped.
std::vector<FlowSegment> segments_of(const flow::Trajectory& run) {
  std::vector<FlowSegment> out;
  FlowSegment current;
  current.kind = kind_of(run.mode.front());
  std::size_t e = 0;
  for (std::size_t i = 0; i < run.t.size(); ++i) {
    if (current.t.empty() || run.t[i] != current.t.back() || run.x[i] != current.x.back()) {
      current.t.push_back(run.t[i]);
      current.x.push_back(run.x[i]);
    }
    if (at_event(run, i, e)) {
      out.push_back(std::move(current));
      current = FlowSegment{};
      current.kind = kind_of(run.events[e].mode_after);
      ++e;
    }
  }
  if (out.empty() || current.t.size() > 1 || run.status == flow::SimulationStatus::kFinished)
    out.push_back(std::move(current));
  return out;
}

// One start of the sliding sector, slid along (16) towards x*.
Approach approach(const FilippovCallbacks& cb, const Vector& x_star, const Vector& start,
                  const FuturesOptions& options) {
  Approach ap;
  ap.start = start;
  ap.start_region = cb.region(start);
  const FutureFlow sliding(cb, options, x_star, options.arrival_distance, true);
  const flow::Trajectory r = run(sliding, kSlidingMode, 0.0, start, options.approach_time, options);
  ap.path = segments_of(r).front();
  const Vector& end = ap.path.x.back();
  ap.final_distance = distance(end, x_star);
  if (last_event(r) == 2) {
    ap.arrived = true;
    ap.arrival_time = ap.path.t.back();
    Vector v;
    cb.flow->field(kSlidingMode, 0.0, end, &v);
    ap.remaining_time = ap.final_distance / v.norm();
    ap.path.end = "arrived within " + str(options.arrival_distance) + " of x*";
    ap.message = "reached |x - x*| = " + str(ap.final_distance) + " at t = " + str(ap.arrival_time) +
                 " (speed there " + str(v.norm()) + ")";
  } else {
    ap.path.end = failed(r) ? r.message
                  : last_event(r) >= 0
                      ? std::string(last_event(r) == 0 ? "H+" : "H-") + " = 0: left the sliding region"
                      : "approach_time reached";
    ap.message = "did not arrive: " + ap.path.end + " at |x - x*| = " + str(ap.final_distance);
  }
  return ap;
}

// After the escaping segment: the slips, crossings and slides of one future
// from x on Sigma at time t into `side`, for simulate_time.
void simulate_future(const FilippovCallbacks& cb, const Vector& x_star, const Vector& x, double t, int side,
                     const FuturesOptions& options, Future* f) {
  if (options.max_segments <= 1) {
    f->end = "max_segments reached";
    f->end_time = t;
    return;
  }
  const FutureFlow future(cb, options, x_star, options.arrival_distance, false);
  const flow::Trajectory r = run(future, side > 0 ? kPlusMode : kMinusMode, t, lift(cb, options, x, side),
                                 t + options.simulate_time, options, options.max_segments - 1);
  std::vector<FlowSegment> segments = segments_of(r);
  for (std::size_t j = 0; j < r.events.size() && j < segments.size(); ++j) {
    const flow::Event& e = r.events[j];
    if (e.mode_before != kSlidingMode)
      segments[j].end = hit_sigma(cb, options, e.x_before).why;
    else if (e.guard == 2)
      segments[j].end = "returned to the two-fold (within " + str(options.arrival_distance) + ")";
    else
      segments[j].end = e.guard == 0 ? "H+ = 0: slips into h > 0" : "H- = 0: slips into h < 0";
  }
  for (const Vector& z : segments.front().x)
    f->max_abs_h = std::max(f->max_abs_h, std::abs(cb.flow->guard(kPlusMode, 0, 0.0, z)));
  switch (r.status) {
    case flow::SimulationStatus::kFinished:
      f->end = "simulate_time reached";
      break;
    case flow::SimulationStatus::kStopped:
      f->end = segments.back().end;
      break;
    case flow::SimulationStatus::kTooManyEvents:
      f->end = "max_segments reached";
      break;
    default:
      f->end = r.message;
  }
  f->end_time = segments.back().t.back();
  for (auto& s : segments) f->segments.push_back(std::move(s));
}

}  // namespace

FuturesResult sample(const FilippovCallbacks& cb, const TwoFoldClassification& c,
                     const FuturesOptions& options) {
  FuturesResult result;
  result.two_fold = c;
  if (!(c.type == TwoFoldType::kInvisibleInvisible && c.twofold_case == TwoFoldCase::kCase1) ||
      c.sliding_quadrant == 0) {
    result.message = "x* = " + detail::format(c.x) + " is " + short_case(c) +
                     ", not a case-1 two-fold: its futures are unique (or the sectors undefined)";
    return result;
  }
  const Vector& x_star = c.x;
  const Vector a = c.v_plus.normalized(), b = c.v_minus.normalized();
  const double q = c.sliding_quadrant;
  auto sector_point = [&](double sign, double theta, double radius) {
    const Vector d = sign * q * (std::cos(theta) * a + std::sin(theta) * b);
    return cb.project(x_star + radius * d.normalized());
  };

  // Arrivals from the sliding sector.
  for (int k = 0; k < options.approach_samples; ++k) {
    const double theta = 0.5 * M_PI * (k + 0.5) / options.approach_samples;
    result.approaches.push_back(
        approach(cb, x_star, sector_point(+1.0, theta, options.approach_radius), options));
  }

  // Futures through the escaping sector.
  const double golden = 0.5 * (std::sqrt(5.0) - 1.0);
  const FutureFlow escaping(cb, options, x_star, -1.0, true);
  for (int k = 0; k < options.samples; ++k) {
    Future f;
    const double theta = 0.5 * M_PI * (k + 0.5) / options.samples;
    f.start = sector_point(-1.0, theta, options.escape_radius);
    f.start_region = cb.region(f.start);
    f.liftoff_fraction = std::fmod((k + 1) * golden, 1.0);
    f.side = k % 2 == 0 ? +1 : -1;
    // How long the escaping sliding orbit stays in the escaping region (at
    // most max_liftoff_time); the lift-off is at the sampled fraction of it.
    if (options.max_liftoff_time > 0.0)
      f.escaping_time =
          segments_of(run(escaping, kEscapingMode, 0.0, f.start, options.max_liftoff_time, options))
              .front()
              .t.back();
    f.liftoff_time = f.liftoff_fraction * f.escaping_time;
    flow::Trajectory esc;
    if (f.liftoff_time > 0.0) {
      esc = run(escaping, kEscapingMode, 0.0, f.start, f.liftoff_time, options);
    } else {  // no time to slide: lift off at the start
      esc.t = {0.0};
      esc.x = {f.start};
      esc.mode = {kEscapingMode};
    }
    f.segments.push_back(segments_of(esc).front());
    FlowSegment& escape = f.segments.back();
    if (failed(esc)) {
      f.end = esc.message;
      escape.end = esc.message;
      result.futures.push_back(std::move(f));
      continue;
    }
    int side = f.side;
    const int event = last_event(esc);
    if (event == 0) side = -1;  // H+ = 0: F+ turns toward Sigma, only F- leaves
    if (event == 1) side = +1;  // H- = 0: only F+ leaves
    escape.end = event < 0 ? "lift-off at the sampled time"
                           : std::string(event == 0 ? "H+" : "H-") + " = 0: the escaping region ends";
    f.left_side = side;
    simulate_future(cb, x_star, cb.project(escape.x.back()), escape.t.back(), side, options, &f);
    result.futures.push_back(std::move(f));
  }
  int arrived = 0, left = 0;
  for (const auto& ap : result.approaches) arrived += ap.arrived;
  for (const auto& f : result.futures) left += f.left_side != 0;
  result.ok = true;
  result.message = std::to_string(arrived) + " of " + std::to_string(result.approaches.size()) +
                   " sliding starts reached x*; " + std::to_string(result.futures.size()) +
                   " futures sampled through the escaping region, " + std::to_string(left) + " left Sigma";
  return result;
}

}  // namespace detail

}  // namespace saltus
