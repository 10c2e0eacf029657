#include "analyses/two_fold/futures.h"

#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "continuation/locate.h"

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

namespace odeint = boost::numeric::odeint;
using State = std::vector<double>;

Integration integrate(const Field& field, const Events& events, int n_events, const Vector& x0, double t0,
                      double t_end, const FuturesOptions& options) {
  Integration out;
  const int n = static_cast<int>(x0.size());
  Vector xv(n), dxv(n);
  auto rhs = [&](const State& x, State& dx, double) {
    for (int i = 0; i < n; ++i) xv[i] = x[i];
    field(xv, &dxv);
    dx.assign(dxv.data(), dxv.data() + n);
  };
  auto to_vector = [n](const State& s) {
    Vector v(n);
    for (int i = 0; i < n; ++i) v[i] = s[i];
    return v;
  };
  auto stepper = odeint::make_dense_output(options.absolute_tolerance, options.relative_tolerance,
                                           options.max_step, odeint::runge_kutta_dopri5<State>());
  State x(x0.data(), x0.data() + n), probe(n);
  out.t.push_back(t0);
  out.x.push_back(x0);
  if (!(t_end > t0)) return out;
  Vector start_values(n_events), values(n_events);
  events(x0, &start_values);
  Vector previous = start_values;
  stepper.initialize(x, t0, std::min(1e-4, options.max_step));
  while (true) {
    const auto [t_a, t_b] = stepper.do_step(rhs);
    const State& now = stepper.current_state();
    bool finite = true;
    for (double c : now) finite = finite && std::isfinite(c);
    if (!finite) {
      out.failed = true;
      out.message = "the state is not finite at t = " + str(t_b);
      return out;
    }
    const double t_stop = std::min(t_b, t_end);
    if (t_b > t_end) stepper.calc_state(t_end, probe);
    const Vector x_stop = to_vector(t_b > t_end ? probe : now);
    // Events on a few interior points of the step too (the dense output), so
    // that an orbit dipping through Sigma and back within one step is seen.
    int fired = -1;
    double t_fire = t_stop;
    double t_left = t_a;
    Vector vk(n_events);
    for (int m = 1; m <= options.event_samples && fired < 0; ++m) {
      const double t_right = t_a + (t_stop - t_a) * m / options.event_samples;
      if (m == options.event_samples) {
        events(x_stop, &values);
      } else {
        stepper.calc_state(t_right, probe);
        events(to_vector(probe), &values);
      }
      // The first event to change sign in (t_left, t_right]: locate each (the
      // engine's locator), keep the earliest; the bracket's far end is past it.
      for (int k = 0; k < n_events; ++k) {
        const double a = previous[k], b = values[k];
        if (!(a != 0.0 && ((a > 0.0 && b <= 0.0) || (a < 0.0 && b >= 0.0)))) continue;
        const auto g = [&](double t) {
          stepper.calc_state(t, probe);
          events(to_vector(probe), &vk);
          return vk[k];
        };
        const double hi =
            locate_sign_change(g, t_left, t_right, a, b, {options.event_tolerance, false, 200}).hi;
        if (fired < 0 || hi < t_fire) {
          fired = k;
          t_fire = hi;
        }
      }
      if (fired < 0) {
        previous = values;
        t_left = t_right;
      }
    }
    if (fired >= 0) {
      stepper.calc_state(t_fire, probe);
      out.t.push_back(t_fire);
      out.x.push_back(to_vector(probe));
      out.event = fired;
      return out;
    }
    out.t.push_back(t_stop);
    out.x.push_back(x_stop);
    if (t_b >= t_end) return out;
  }
}

namespace {

double distance(const Vector& a, const Vector& b) { return (a - b).norm(); }

// A sliding segment from x (on Sigma) along (16) until H+ or H- changes sign
// or |x - x*| reaches `arrival` (arrival <= 0: not watched) or t_end.
Integration slide(const FilippovCallbacks& cb, const Vector& x, double t0, double t_end, const Vector& x_star,
                  double arrival, const FuturesOptions& options) {
  const Events events = [&](const Vector& z, Vector* v) {
    v->resize(3);
    cb.lies(z, &(*v)[0], &(*v)[1]);
    (*v)[2] = arrival > 0.0 ? distance(z, x_star) - arrival : 1.0;
  };
  return integrate(cb.sliding, events, 3, x, t0, t_end, options);
}

FlowSegment segment(SegmentKind kind, const Integration& run) {
  FlowSegment s;
  s.kind = kind;
  s.t = run.t;
  s.x = run.x;
  return s;
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
    Approach ap;
    const double theta = 0.5 * M_PI * (k + 0.5) / options.approach_samples;
    ap.start = sector_point(+1.0, theta, options.approach_radius);
    ap.start_region = cb.region(ap.start);
    const Integration run =
        slide(cb, ap.start, 0.0, options.approach_time, x_star, options.arrival_distance, options);
    ap.path = segment(SegmentKind::kSliding, run);
    const Vector& end = run.x.back();
    ap.final_distance = distance(end, x_star);
    if (run.event == 2) {
      ap.arrived = true;
      ap.arrival_time = run.t.back();
      Vector v;
      cb.sliding(end, &v);
      ap.remaining_time = ap.final_distance / v.norm();
      ap.path.end = "arrived within " + str(options.arrival_distance) + " of x*";
      ap.message = "reached |x - x*| = " + str(ap.final_distance) + " at t = " + str(ap.arrival_time) +
                   " (speed there " + str(v.norm()) + ")";
    } else {
      ap.path.end = run.failed ? run.message
                    : run.event >= 0
                        ? std::string(run.event == 0 ? "H+" : "H-") + " = 0: left the sliding region"
                        : "approach_time reached";
      ap.message = "did not arrive: " + ap.path.end + " at |x - x*| = " + str(ap.final_distance);
    }
    result.approaches.push_back(std::move(ap));
  }

  // Futures through the escaping sector.
  const double golden = 0.5 * (std::sqrt(5.0) - 1.0);
  for (int k = 0; k < options.samples; ++k) {
    Future f;
    const double theta = 0.5 * M_PI * (k + 0.5) / options.samples;
    f.start = sector_point(-1.0, theta, options.escape_radius);
    f.start_region = cb.region(f.start);
    f.liftoff_fraction = std::fmod((k + 1) * golden, 1.0);
    f.side = k % 2 == 0 ? +1 : -1;
    // How long the escaping sliding orbit stays in the escaping region (at
    // most max_liftoff_time); the lift-off is at the sampled fraction of it.
    const Integration whole = slide(cb, f.start, 0.0, options.max_liftoff_time, x_star, -1.0, options);
    f.escaping_time = whole.t.back();
    f.liftoff_time = f.liftoff_fraction * f.escaping_time;
    const Integration esc = slide(cb, f.start, 0.0, f.liftoff_time, x_star, -1.0, options);
    f.segments.push_back(segment(SegmentKind::kEscaping, esc));
    int side = f.side;
    if (esc.failed) {
      f.end = esc.message;
      f.segments.back().end = esc.message;
      result.futures.push_back(std::move(f));
      continue;
    }
    if (esc.event == 0) side = -1;  // H+ = 0: F+ turns toward Sigma, only F- leaves
    if (esc.event == 1) side = +1;  // H- = 0: only F+ leaves
    f.segments.back().end =
        esc.event < 0 ? "lift-off at the sampled time"
                      : std::string(esc.event == 0 ? "H+" : "H-") + " = 0: the escaping region ends";
    f.left_side = side;
    double t = esc.t.back();
    const double t_end = t + options.simulate_time;
    Vector x = cb.project(esc.x.back());
    bool first_slip = true;
    std::string end = "simulate_time reached";
    while (static_cast<int>(f.segments.size()) < options.max_segments) {
      // Slip on `side` from x on Sigma.
      const Vector g = cb.gradient(x);
      const Vector x0 = x + side * options.lift_offset * g.normalized();
      const Events h_event = [&](const Vector& z, Vector* v) {
        v->resize(1);
        (*v)[0] = cb.h(z);
      };
      const Integration slip = integrate(side > 0 ? cb.plus : cb.minus, h_event, 1, x0, t, t_end, options);
      f.segments.push_back(segment(side > 0 ? SegmentKind::kSlipPlus : SegmentKind::kSlipMinus, slip));
      if (first_slip) {
        for (const auto& z : slip.x) f.max_abs_h = std::max(f.max_abs_h, std::abs(cb.h(z)));
        first_slip = false;
      }
      t = slip.t.back();
      if (slip.failed) {
        end = slip.message;
        break;
      }
      if (slip.event < 0) break;
      x = cb.project(slip.x.back());
      if (cb.barrier && std::abs(cb.barrier(x)) <= options.barrier_tolerance) {
        end = "reached Sigma where the barrier function vanishes (" + str(cb.barrier(x)) +
              "): the model is not defined beyond";
        f.segments.back().end = end;
        break;
      }
      double hp, hm;
      cb.lies(x, &hp, &hm);
      if (hp > 0.0 && hm > 0.0) {
        side = +1;
        f.segments.back().end = "crossed upward";
        continue;
      }
      if (hp < 0.0 && hm < 0.0) {
        side = -1;
        f.segments.back().end = "crossed downward";
        continue;
      }
      if (hp < 0.0 && hm > 0.0) {
        f.segments.back().end = "entered the sliding region";
        const Integration s = slide(cb, x, t, t_end, x_star, options.arrival_distance, options);
        f.segments.push_back(segment(SegmentKind::kSliding, s));
        t = s.t.back();
        if (s.failed) {
          end = s.message;
          break;
        }
        if (s.event < 0) break;
        if (s.event == 2) {
          end = "returned to the two-fold (within " + str(options.arrival_distance) + ")";
          f.segments.back().end = end;
          break;
        }
        side = s.event == 0 ? +1 : -1;  // H+ turned positive: F+ leaves upward; H- negative: F- downward
        f.segments.back().end = side > 0 ? "H+ = 0: slips into h > 0" : "H- = 0: slips into h < 0";
        x = cb.project(s.x.back());
        continue;
      }
      end = "reached Sigma at a tangency or in the escaping region (H+ = " + str(hp) + ", H- = " + str(hm) +
            ")";
      break;
    }
    if (static_cast<int>(f.segments.size()) >= options.max_segments) end = "max_segments reached";
    f.end = end;
    f.end_time = t;
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
