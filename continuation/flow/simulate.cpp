#include "continuation/flow/simulate.h"

#include <array>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "continuation/flow/dop853.h"
#include "continuation/flow/guard_search.h"
#include "continuation/locate.h"

namespace saltus::flow {

namespace odeint = boost::numeric::odeint;

std::vector<std::string> HybridSystem::state_names() const {
  std::vector<std::string> names;
  for (int i = 0; i < dimension(); ++i) names.push_back("x" + std::to_string(i));
  return names;
}

Matrix saltation_matrix(const Matrix& G_x, const Vector& G_t, const Vector& f_minus, const Vector& f_plus,
                        const Vector& h_x, double h_t) {
  const double h_dot = h_x.dot(f_minus) + h_t;
  if (!(std::abs(h_dot) > 0.0) || !std::isfinite(h_dot))
    throw std::domain_error("tangential event (h_x . f + h_t = " + std::to_string(h_dot) +
                            "): grazing, no saltation matrix");
  return G_x + (f_plus - G_x * f_minus - G_t) * h_x.transpose() / h_dot;
}

std::string SimulationOptions::check() const {
  std::ostringstream why;
  if (!(absolute_tolerance > 0) || !(relative_tolerance >= 0))
    why << "absolute_tolerance = " << absolute_tolerance << " and relative_tolerance = " << relative_tolerance
        << " must be positive";
  else if (!(initial_step > 0) || !std::isfinite(initial_step))
    why << "initial_step = " << initial_step << " must be positive and finite";
  else if (!(max_step > 0))
    why << "max_step = " << max_step << " must be positive";
  else if (!(event_tolerance > 0))
    why << "event_tolerance = " << event_tolerance << " must be positive";
  else if (event_samples < 1 || event_samples > 1000)
    why << "event_samples = " << event_samples << " must be in [1, 1000]";
  else if (max_events < 0)
    why << "max_events = " << max_events << " must be >= 0";
  else if (!(zeno_interval >= 0) || zeno_events < 2)
    why << "zeno_interval = " << zeno_interval << " must be >= 0 and zeno_events = " << zeno_events
        << " >= 2";
  else if (!(output_interval >= 0))
    why << "output_interval = " << output_interval << " must be >= 0";
  else if (max_steps < 1)
    why << "max_steps = " << max_steps << " must be >= 1";
  else if (constant_components < 0)
    why << "constant_components = " << constant_components << " must be >= 0";
  else if (method != IntegrationMethod::kDopri5 && method != IntegrationMethod::kDop853)
    why << "method = " << static_cast<int>(method) << " is not a method (dopri5 or dop853)";
  return why.str();
}

std::string to_string(IntegrationMethod method) {
  switch (method) {
    case IntegrationMethod::kDopri5:
      return "dopri5";
    case IntegrationMethod::kDop853:
      return "dop853";
  }
  return "unknown";
}

IntegrationMethod integration_method_from_string(const std::string& name) {
  if (name == "dopri5") return IntegrationMethod::kDopri5;
  if (name == "dop853") return IntegrationMethod::kDop853;
  throw std::invalid_argument("unknown integration method '" + name + "' (allowed: \"dopri5\", \"dop853\")");
}

std::string to_string(SimulationStatus status) {
  switch (status) {
    case SimulationStatus::kFinished:
      return "finished";
    case SimulationStatus::kTooManyEvents:
      return "too_many_events";
    case SimulationStatus::kZeno:
      return "zeno";
    case SimulationStatus::kGrazing:
      return "grazing";
    case SimulationStatus::kStepFailed:
      return "step_failed";
    case SimulationStatus::kStopped:
      return "stopped";
    case SimulationStatus::kTooManySteps:
      return "too_many_steps";
  }
  return "unknown";
}

namespace {

using State = std::vector<double>;

// Is `after` past the guard from `before`?
bool crossed(Crossing c, double before, double after) {
  switch (c) {
    case Crossing::kFalling:
      return before > 0 && after <= 0;
    case Crossing::kRising:
      return before < 0 && after >= 0;
    case Crossing::kEither:
      return (before > 0 && after <= 0) || (before < 0 && after >= 0);
  }
  return false;
}

// odeint's default error checker (the same weighted maximum norm,
// |err_i| / (abs + rel (|z_i| + dt |z'_i|))) restricted to the first
// `controlled` components of the ODE state: the state alone when Phi is left
// out of the step-size control, every component otherwise.
class LeadingErrorChecker {
 public:
  using value_type = double;
  using algebra_type = odeint::range_algebra;
  using operations_type = odeint::default_operations;

  LeadingErrorChecker(double eps_abs, double eps_rel, std::size_t controlled)
      : eps_abs_(eps_abs), eps_rel_(eps_rel), controlled_(controlled) {}

  template <class S, class D, class E>
  double error(algebra_type&, const S& z_old, const D& dz_old, E& z_err, double dt) const {
    double e = 0.0;
    const double adt = std::abs(dt);
    for (std::size_t i = 0; i < controlled_; ++i)
      e = std::max(
          e, std::abs(z_err[i]) / (eps_abs_ + eps_rel_ * (std::abs(z_old[i]) + adt * std::abs(dz_old[i]))));
    return e;
  }
  template <class S, class D, class E>
  double error(const S& z_old, const D& dz_old, E& z_err, double dt) const {
    algebra_type algebra;
    return error(algebra, z_old, dz_old, z_err, dt);
  }

 private:
  double eps_abs_, eps_rel_;
  std::size_t controlled_;
};

// What the steps of a run have learned of one guard, for the next step's
// search (continuation/flow/guard_search.h).
//   roughness  |g''''| / 384 as the last searched steps measured it (halved at
//              each such step, so that it follows the guard): a step several
//              times longer than the guard's oscillations is searched in
//              pieces that resolve them.
//   width      the last searched step's length: the error amplitude below
//              the measuring threshold (1e6 floors) is at most that over its
//              width^4, a bound that holds for the next steps too.
//   unsearched steps since then: up to 3 a step far from the guard (by its
//              ends, their rates and the prior with 100 times its safety) is
//              taken as free of zeros without a value inside, which saves
//              the dense output's three extra stages; every 4th is searched.
struct GuardMemory {
  double roughness = 0.0;
  double width = 0.0;
  int unsearched = 0;
};

class Simulator {
 public:
  Simulator(const HybridSystem& system, const SimulationOptions& options, const SimulationObserver& observer,
            const std::vector<Section>& sections)
      : sys_(system),
        opt_(options),
        observer_(observer),
        sections_(sections),
        n_(system.dimension()),
        m_(options.variational ? n_ - options.constant_components : n_) {}

  Trajectory run(int mode0, double t0, const Vector& x0, double t1);

 private:
  // The run loop, one for both methods: Stepper has odeint's dense-output
  // interface (initialize, do_step, current_state, current_time_step, calc_state).
  template <class Stepper>
  Trajectory run_with(Stepper& stepper, int mode0, double t0, const Vector& x0, double t1);

  // The state of the ODE: x, then the top m rows of Phi column by column
  // (m = n less the constant components, whose rows stay (0 I)). With
  // Phi = (P; 0 I), P = (P_1 P_2) and A = (A_11 A_12) in the top rows,
  //   P' = A_11 P + (0 A_12):
  // the constant rows cost neither products nor error control. The system
  // writes f and P' straight into dz (HybridSystem::field_and_tangent_in_place:
  // for AutoDiffHybrid directional derivatives, no A and no product).
  void rhs(const State& z, State& dz, double t) const {
    if (opt_.variational)
      sys_.field_and_tangent_in_place(mode_, t, z.data(), m_, z.data() + n_, dz.data(), dz.data() + n_);
    else
      sys_.field_in_place(mode_, t, z.data(), dz.data());
  }
  Vector x_of(const State& z) const { return Eigen::Map<const Vector>(z.data(), n_); }
  // The full n x n Phi from the ODE state: the integrated rows, then (0 I).
  Matrix phi_of(const State& z) const {
    Matrix Phi = Matrix::Identity(n_, n_);
    Phi.topRows(m_) = Eigen::Map<const Matrix>(z.data() + n_, m_, n_);
    return Phi;
  }
  double guard_at(int k, double t, const State& z) const {
    guard_x_ = Eigen::Map<const Vector>(z.data(), n_);
    return sys_.guard(mode_, k, t, guard_x_);
  }
  // The first zero of guard k in (ta, tb] (za, ha at ta; zb, hb at tb), on
  // the step's dense output (continuation/flow/guard_search.h), or +inf
  // when there is none. rate_a: the guard's rate at ta when known (NaN
  // otherwise); *rate_b gets the one at tb when the search asked for it.
  // fsal: the stepper's derivative at tb is the field there. *memory: what
  // the last steps learned of the guard (GuardMemory).
  template <class Stepper>
  double first_zero(Stepper& stepper, int k, double ta, const State& za, double ha, double rate_a, double tb,
                    const State& zb, double hb, bool fsal, double near_zero, const LocateOptions& location,
                    double* rate_b, struct GuardMemory* memory);
  // x at t in the last step, on the dense output (x alone: with dop853 the
  // extra stages of Phi are not evaluated for it).
  template <class Stepper>
  void dense_x(Stepper& stepper, double t, Vector* x) {
    x->resize(n_);
    if constexpr (std::is_same_v<Stepper, Dop853>) {
      stepper.calc_leading(t, n_, x->data(), [this](const double* y, double* dy, double s) {
        sys_.field_in_place(mode_, s, y, dy);
      });
    } else {
      dense_tmp_.resize(stepper.current_state().size());  // odeint writes into it as it is
      stepper.calc_state(t, dense_tmp_);
      std::copy(dense_tmp_.begin(), dense_tmp_.begin() + n_, x->data());
    }
  }

  bool record(Trajectory* out, double t, const Vector& x) {
    out->t.push_back(t);
    out->x.push_back(x);
    out->mode.push_back(mode_);
    return !observer_ || observer_(t, x, mode_);
  }
  // The same from the ODE state, built in place (one allocation, not two).
  bool record(Trajectory* out, double t, const State& z) {
    out->t.push_back(t);
    out->x.emplace_back(Eigen::Map<const Vector>(z.data(), n_));
    out->mode.push_back(mode_);
    return !observer_ || observer_(t, out->x.back(), mode_);
  }

  const HybridSystem& sys_;
  const SimulationOptions& opt_;
  const SimulationObserver& observer_;
  const std::vector<Section>& sections_;
  const int n_;
  const int m_;  // the rows of Phi integrated
  int mode_ = 0;
  mutable Vector guard_x_;
  // x and f at the step's ends (0: ta, 1: tb), made once per step when a
  // guard's rate there is asked for; scratch for the dense output.
  std::array<Vector, 2> end_x_, end_f_;
  std::array<bool, 2> ends_ready_{false, false};
  Vector x_inside_, f_inside_;
  State dense_tmp_;
};

template <class Stepper>
double Simulator::first_zero(Stepper& stepper, int k, double ta, const State& za, double ha, double rate_a,
                             double tb, const State& zb, double hb, bool fsal, double near_zero,
                             const LocateOptions& location, double* rate_b, GuardMemory* memory) {
  constexpr double kNone = std::numeric_limits<double>::infinity();
  // The guard's rate at an end of the step (0: ta, 1: tb), not oriented.
  auto end_rate = [&](int end) {
    const double t = end == 0 ? ta : tb;
    if (!ends_ready_[end]) {
      end_x_[end] = Eigen::Map<const Vector>((end == 0 ? za : zb).data(), n_);
      end_f_[end].resize(n_);
      bool done = false;
      if constexpr (std::is_same_v<Stepper, Dop853>) {
        if (end == 0 || fsal) {
          const State& f = end == 0 ? stepper.old_derivative() : stepper.current_derivative();
          std::copy(f.begin(), f.begin() + n_, end_f_[end].data());
          done = true;
        }
      }
      if (!done) sys_.field_in_place(mode_, t, end_x_[end].data(), end_f_[end].data());
      ends_ready_[end] = true;
    }
    return sys_.guard_rate(mode_, k, t, end_x_[end], end_f_[end]);
  };
  // Oriented so that the side before the event is g > 0; a guard that may
  // be crossed either way is oriented by the side it is on, or leaving to.
  const Crossing c = sys_.crossing(mode_, k);
  const bool on_guard = std::abs(ha) <= near_zero;
  double sign = c == Crossing::kFalling ? 1.0 : c == Crossing::kRising ? -1.0 : 0.0;
  if (sign == 0.0) {
    if (!on_guard) {
      sign = ha > 0.0 ? 1.0 : -1.0;
    } else {
      if (std::isnan(rate_a)) rate_a = end_rate(0);
      if (std::abs(rate_a) * (tb - ta) > near_zero)
        sign = rate_a > 0.0 ? 1.0 : -1.0;
      else if (std::abs(hb) > near_zero)
        sign = hb > 0.0 ? 1.0 : -1.0;
      else
        return kNone;
    }
  }
  detail::GuardNode a{ta, on_guard ? 0.0 : sign * ha, sign * rate_a};
  if (a.g < 0.0) return kNone;  // past the guard at the start: no event from there
  detail::GuardNode b{tb, sign * hb};
  auto value = [&](double t) {
    dense_x(stepper, t, &x_inside_);
    return sign * sys_.guard(mode_, k, t, x_inside_);
  };
  auto rate = [&](double t) {
    if (t == ta) return sign * end_rate(0);
    if (t == tb) {
      if (std::isnan(*rate_b)) *rate_b = end_rate(1);
      return sign * *rate_b;
    }
    dense_x(stepper, t, &x_inside_);
    f_inside_.resize(n_);
    sys_.field_in_place(mode_, t, x_inside_.data(), f_inside_.data());
    return sign * sys_.guard_rate(mode_, k, t, x_inside_, f_inside_);
  };
  auto locate = [&](double lo, double hi, double g_lo, double g_hi) {
    return locate_sign_change(value, lo, hi, g_lo, g_hi, location).lo;
  };
  // event_samples > 1: the first of the equal parts whose end is past the
  // guard bounds the search.
  for (int j = 1; j < opt_.event_samples; ++j) {
    const double t = ta + (tb - ta) * j / opt_.event_samples;
    const double g = value(t);
    if (a.g > 0.0 ? !(g > 0.0) : g < -near_zero) {
      b = {t, g};
      break;
    }
  }
  detail::GuardSearchOptions options;
  options.interior = opt_.guard_search;
  options.floor = near_zero;
  options.min_width = opt_.event_tolerance * (1.0 + std::abs(ta));
  options.roughness = memory->roughness;
  if (memory->width > 0.0 && memory->unsearched < 3 && opt_.event_samples == 1) {
    const double w2 = memory->width * memory->width;
    options.prior = std::max(memory->roughness, 1e6 * near_zero / (w2 * w2));
  }
  auto search = detail::make_guard_search(options, value, rate, locate);
  const detail::GuardSearchResult r = search.first_zero(a, b);
  if (search.searched()) {
    memory->roughness = std::max(0.5 * memory->roughness, search.roughness());
    memory->width = tb - ta;
    memory->unsearched = 0;
  } else {
    ++memory->unsearched;
  }
  return r.kind == detail::GuardSearchResult::kNone ? kNone : r.t;
}

Trajectory Simulator::run(int mode0, double t0, const Vector& x0, double t1) {
  const std::size_t size = opt_.variational ? n_ + m_ * n_ : n_;
  const std::size_t controlled = opt_.transition_error_control ? size : n_;
  if (opt_.method == IntegrationMethod::kDop853) {
    Dop853Options dop;
    dop.absolute_tolerance = opt_.absolute_tolerance;
    dop.relative_tolerance = opt_.relative_tolerance;
    dop.controlled = controlled;
    dop.max_step = opt_.max_step;
    Dop853 stepper(dop);
    return run_with(stepper, mode0, t0, x0, t1);
  }
  // Dormand-Prince 5(4) with dense output, as odeint's make_dense_output
  // builds it, but with the error norm over the components that control the step.
  using Controlled = odeint::controlled_runge_kutta<odeint::runge_kutta_dopri5<State>, LeadingErrorChecker,
                                                    odeint::default_step_adjuster<double, double>>;
  odeint::dense_output_runge_kutta<Controlled> stepper(
      Controlled(LeadingErrorChecker(opt_.absolute_tolerance, opt_.relative_tolerance, controlled),
                 odeint::default_step_adjuster<double, double>(opt_.max_step)));
  return run_with(stepper, mode0, t0, x0, t1);
}

template <class Stepper>
Trajectory Simulator::run_with(Stepper& stepper, int mode0, double t0, const Vector& x0, double t1) {
  Trajectory out;
  mode_ = mode0;
  const int size = opt_.variational ? n_ + m_ * n_ : n_;
  State z(size, 0.0), z_tmp(size), zb(size), zm(size);
  guard_x_.resize(n_);
  std::copy(x0.data(), x0.data() + n_, z.begin());
  if (opt_.variational)
    for (int i = 0; i < m_; ++i) z[n_ + i * m_ + i] = 1.0;

  long steps = 0;
  auto system = [this](const State& zz, State& dz, double t) { rhs(zz, dz, t); };

  double t = t0;
  stepper.initialize(z, t, std::min(opt_.initial_step, t1 - t0));
  std::vector<double> h_prev(sys_.guard_count(mode_)), h_next;
  for (int k = 0; k < static_cast<int>(h_prev.size()); ++k) h_prev[k] = guard_at(k, t, z);
  std::vector<double> rate_prev(h_prev.size(), std::numeric_limits<double>::quiet_NaN()), rate_next;
  std::vector<GuardMemory> memory(h_prev.size());
  record(&out, t, x0);
  std::vector<double> section_prev(sections_.size());
  for (std::size_t j = 0; j < sections_.size(); ++j) section_prev[j] = sections_[j].h(t, x0);
  // The sample times t0 + k * output_interval, computed afresh each time: a
  // running sum stalls where the interval falls below the spacing of doubles.
  long outputs = 1;
  double next_output = t0 + opt_.output_interval;
  // Guards and sections: located on the dense output to event_tolerance, relative to 1 + |t|.
  const LocateOptions event_location{opt_.event_tolerance, true, 200};
  int close_events = 0;

  auto finish = [&](SimulationStatus status, const std::string& message, double t_end, const State& zz) {
    out.status = status;
    out.message = message;
    out.t_end = t_end;
    out.x_end = x_of(zz);
    out.mode_end = mode_;
    if (opt_.variational) out.transition_matrix = phi_of(zz);
    return out;
  };

  // Every kPaceWindow steps the pace is checked: when the time the last
  // window advanced, kept up, would need ten times the steps left in
  // max_steps, the run ends now rather than after max_steps (a state blowing
  // up takes steps of 1e-33 for minutes before the budget runs out).
  constexpr long kPaceWindow = 100000;
  double window_start = t;
  while (true) {
    ++steps;
    const bool out_of_pace = steps % kPaceWindow == 0 && t > window_start &&
                             (t1 - t) / (t - window_start) * kPaceWindow > 10.0 * (opt_.max_steps - steps);
    if (steps % kPaceWindow == 0) window_start = t;
    if (steps > opt_.max_steps || out_of_pace) {
      std::ostringstream msg;
      msg << std::setprecision(12)
          << (out_of_pace ? "at the pace of the last steps, more than max_steps = "
                          : "more than max_steps = ")
          << opt_.max_steps << " steps: at t = " << t << " the step size is " << stepper.current_time_step()
          << " (a singular or discontinuous field without a guard, or a state blowing up?)";
      return finish(SimulationStatus::kTooManySteps, msg.str(), t, z);
    }
    std::pair<double, double> step;
    try {
      step = stepper.do_step(system);
    } catch (const std::exception& e) {
      return finish(SimulationStatus::kStepFailed, std::string("the integrator failed: ") + e.what(), t, z);
    }
    const double ta = step.first, tb = std::min(step.second, t1);
    // A step shorter than the spacing of doubles at t leaves no interval to
    // locate an event in (the locator would throw on the empty bracket).
    if (!(tb > ta)) {
      std::ostringstream msg;
      msg << std::setprecision(12) << "at t = " << ta << " the step " << stepper.current_time_step()
          << " no longer advances time (doubles there are "
          << std::nextafter(ta, std::numeric_limits<double>::infinity()) - ta
          << " apart); "
          // Far from 0 the doubles are coarse; near it the step itself
          // collapsed: the field is too fast or too stiff to follow.
          << (std::abs(ta) > 1e6
                  ? "start the time nearer 0"
                  : "the field is too fast or too stiff here (a state or parameter of extreme size?)");
      return finish(SimulationStatus::kStepFailed, msg.str(), ta, z);
    }
    const State& zb_full = stepper.current_state();
    if (!std::all_of(zb_full.begin(), zb_full.begin() + n_, [](double v) { return std::isfinite(v); }))
      return finish(SimulationStatus::kStepFailed,
                    "the state is not finite at t = " + std::to_string(step.second), ta, z);
    if (tb < step.second)
      stepper.calc_state(tb, zb);
    else
      zb = zb_full;

    // The earliest event in (ta, tb]. The guards at tb are kept in h_next:
    // they are the next step's h_prev when no event intervenes; so are
    // their rates (NaN until the search asks for one).
    int event_guard = -1;
    double t_event = tb;
    const double scale = 1.0 + Eigen::Map<const Vector>(zb.data(), n_).lpNorm<Eigen::Infinity>();
    const double near_zero = 64 * std::numeric_limits<double>::epsilon() * scale;
    const int guards = static_cast<int>(h_prev.size());
    h_next.resize(guards);
    rate_next.assign(guards, std::numeric_limits<double>::quiet_NaN());
    const bool fsal = std::is_same_v<Stepper, Dop853> && tb == step.second;
    ends_ready_ = {false, false};
    for (int k = 0; k < guards; ++k) {
      const double hb = guard_at(k, tb, zb);
      h_next[k] = hb;
      const double root = first_zero(stepper, k, ta, z, h_prev[k], rate_prev[k], tb, zb, hb, fsal, near_zero,
                                     event_location, &rate_next[k], &memory[k]);
      if (root < t_event || (root == t_event && event_guard < 0)) {
        t_event = root;
        event_guard = k;
      }
    }

    // Output samples up to the event or the step end.
    const double t_out_end = event_guard >= 0 ? t_event : tb;
    for (std::size_t j = 0; j < sections_.size(); ++j) {
      stepper.calc_state(t_out_end, z_tmp);
      const double hb = sections_[j].h(t_out_end, x_of(z_tmp));
      if (crossed(sections_[j].crossing, section_prev[j], hb)) {
        auto h = [&](double s) {
          stepper.calc_state(s, z_tmp);
          return sections_[j].h(s, x_of(z_tmp));
        };
        double root = t_out_end;
        if (hb != 0.0) {
          root = locate_sign_change(h, ta, t_out_end, section_prev[j], hb, event_location).hi;
        }
        stepper.calc_state(root, z_tmp);
        out.section_hits.push_back({root, x_of(z_tmp), static_cast<int>(j), mode_});
      }
      section_prev[j] = hb;
    }
    if (opt_.output_interval > 0) {
      while (next_output <= t_out_end) {
        stepper.calc_state(next_output, z_tmp);
        if (!record(&out, next_output, z_tmp))
          return finish(SimulationStatus::kStopped, "stopped by the observer", next_output, z_tmp);
        next_output = t0 + static_cast<double>(++outputs) * opt_.output_interval;
      }
    } else if (event_guard < 0 && opt_.record_steps) {
      if (!record(&out, tb, zb)) return finish(SimulationStatus::kStopped, "stopped by the observer", tb, zb);
    }

    if (event_guard < 0) {
      t = tb;
      z = zb;
      h_prev.swap(h_next);
      rate_prev.swap(rate_next);
      if (tb >= t1) return finish(SimulationStatus::kFinished, "reached t = " + std::to_string(t1), tb, zb);
      continue;
    }

    // The event: x-, the transition, the saltation matrix.
    stepper.calc_state(t_event, zm);
    Event e;
    e.t = t_event;
    e.guard = event_guard;
    e.guard_name = sys_.guard_name(mode_, event_guard);
    e.mode_before = mode_;
    e.x_before = x_of(zm);
    if (opt_.variational) {
      // Saltation needs the crossing to be transversal; a tangential one (grazing) ends the run.
      Vector h_x;
      double h_t = 0.0;
      sys_.guard_gradient(mode_, event_guard, t_event, e.x_before, &h_x, &h_t);
      Vector f_minus;
      sys_.field(mode_, t_event, e.x_before, &f_minus);
      const int next = sys_.next_mode(mode_, event_guard, t_event, e.x_before);
      Matrix G_x;
      Vector G_t;
      sys_.reset(mode_, event_guard, next, t_event, e.x_before, &e.x_after, &G_x, &G_t);
      Vector f_plus;
      sys_.field(next, t_event, e.x_after, &f_plus);
      try {
        e.saltation = saltation_matrix(G_x, G_t, f_minus, f_plus, h_x, h_t);
      } catch (const std::domain_error& err) {
        record(&out, t_event, e.x_before);
        return finish(SimulationStatus::kGrazing,
                      "at t = " + std::to_string(t_event) + ", " + e.guard_name + ": " + err.what(), t_event,
                      zm);
      }
      e.mode_after = next;
      // The saltation's constant rows are (0 I) (p' = 0, p+ = p): only the top rows of Phi move.
      Eigen::Map<Matrix>(zm.data() + n_, m_, n_) = e.saltation.topRows(m_) * phi_of(zm);
    } else {
      const int next = sys_.next_mode(mode_, event_guard, t_event, e.x_before);
      sys_.reset_state(mode_, event_guard, next, t_event, e.x_before, &e.x_after);
      e.mode_after = next;
    }
    if (!e.x_after.allFinite())
      return finish(SimulationStatus::kStepFailed,
                    "the reset at t = " + std::to_string(t_event) + " is not finite", t_event, zm);
    record(&out, t_event, e.x_before);
    const double previous_event =
        out.events.empty() ? -std::numeric_limits<double>::infinity() : out.events.back().t;
    const double previous_event_or_start = out.events.empty() ? t0 : out.events.back().t;
    close_events =
        t_event - previous_event <= opt_.zeno_interval * (1.0 + std::abs(t_event)) ? close_events + 1 : 0;
    out.events.push_back(e);
    mode_ = e.mode_after;
    std::copy(e.x_after.data(), e.x_after.data() + n_, zm.begin());
    if (!record(&out, t_event, e.x_after))
      return finish(SimulationStatus::kStopped, "stopped by the observer", t_event, zm);
    if (static_cast<int>(out.events.size()) >= opt_.max_events)
      return finish(SimulationStatus::kTooManyEvents,
                    "more than max_events = " + std::to_string(opt_.max_events) + " events", t_event, zm);
    if (close_events >= opt_.zeno_events) {
      std::ostringstream msg;
      msg << opt_.zeno_events << " events within " << opt_.zeno_interval
          << " of each other at t = " << t_event << " (" << e.guard_name
          << "): a Zeno accumulation the system's transitions do not resolve";
      return finish(SimulationStatus::kZeno, msg.str(), t_event, zm);
    }
    if (t_event >= t1)
      return finish(SimulationStatus::kFinished, "reached t = " + std::to_string(t1), t_event, zm);

    t = t_event;
    z = zm;
    // The same stepper, restarted: initialize() drops the step's derivative.
    // dopri5 restarts with initial_step: restarting with the last step saves
    // ~25% of the field evaluations on the pendulum but locates the next
    // events on the order-4 dense output of a long step: 5-10x larger
    // event-time errors at the same tolerance, no gain at equal accuracy.
    // dop853 restarts with the step its controller proposed before the
    // event, bounded by the time since the previous event (the flight just
    // ended: a chattering sequence's flights shrink geometrically) and not
    // below initial_step. From initial_step its steps need ~4 tries (x6 each,
    // 12 evaluations each) to grow to a flight's scale, most of a short
    // flight's cost. Measured on the pendulum's first 40 (e = 0.8) and 60
    // (e = 1) impacts (bench/peer): at tolerance 1e-10 the bounded restart
    // takes 1417 and 2015 evaluations for event-time errors 2.8e-9 and
    // 8.3e-9, where initial_step needs 1927 (at 1e-8) and 4169 (at 1e-10)
    // for 9.5e-9 and 2.2e-8.
    double restart = opt_.initial_step;
    if constexpr (std::is_same_v<Stepper, Dop853>)
      restart = std::max(opt_.initial_step,
                         std::min(stepper.current_time_step(), t_event - previous_event_or_start));
    stepper.initialize(zm, t, std::min(restart, t1 - t));
    for (std::size_t j = 0; j < sections_.size(); ++j) section_prev[j] = sections_[j].h(t, e.x_after);
    h_prev.assign(sys_.guard_count(mode_), 0.0);
    for (int k = 0; k < static_cast<int>(h_prev.size()); ++k) h_prev[k] = guard_at(k, t, zm);
    rate_prev.assign(h_prev.size(), std::numeric_limits<double>::quiet_NaN());
    if (e.mode_after != e.mode_before) memory.assign(h_prev.size(), GuardMemory{});  // other guards
  }
}

}  // namespace

// The most samples a grid of output_interval may give (see simulate()).
constexpr double kMaxSamples = 1e7;

Trajectory simulate(const HybridSystem& system, int mode0, double t0, const Vector& x0, double t1,
                    const SimulationOptions& options, const SimulationObserver& observer,
                    const std::vector<Section>& sections) {
  if (const std::string why = options.check(); !why.empty())
    throw std::invalid_argument("simulation options: " + why);
  if (x0.size() != system.dimension())
    throw std::invalid_argument("initial state has " + std::to_string(x0.size()) +
                                " components, the system " + std::to_string(system.dimension()));
  if (!x0.allFinite()) throw std::invalid_argument("initial state is not finite");
  if (options.constant_components > system.dimension())
    throw std::invalid_argument(
        "simulation options: constant_components = " + std::to_string(options.constant_components) +
        " exceeds the dimension " + std::to_string(system.dimension()));
  if (!(t1 > t0) || !std::isfinite(t0) || !std::isfinite(t1)) {
    std::ostringstream why;
    why << std::setprecision(12) << "the time span [" << t0 << ", " << t1 << "] must be finite with t1 > t0";
    if (std::max(std::abs(t0), std::abs(t1)) > 1e15)  // a transient or duration of 1e19 added to t
      why << " (at times beyond 1e15 a double has no digits left for the span: give shorter times)";
    throw std::invalid_argument(why.str());
  }
  if (options.output_interval > 0) {
    // Samples are kept in memory (some 100 bytes each for a small state): a
    // grid finer than the time resolution or of more than kMaxSamples points
    // is a mistake in the interval, not a run to start.
    const double samples = (t1 - t0) / options.output_interval;
    const double top = std::max(std::abs(t0), std::abs(t1));
    if (samples > kMaxSamples || options.output_interval < 16 * (std::nextafter(top, INFINITY) - top)) {
      std::ostringstream why;
      why << "simulation options: output_interval = " << options.output_interval << " gives " << samples
          << " samples over [" << t0 << ", " << t1 << "] (at most " << kMaxSamples
          << ", each well above the spacing of doubles at t): give a larger output_interval or a shorter "
             "time span";
      throw std::invalid_argument(why.str());
    }
  }
  Simulator simulator(system, options, observer, sections);
  return simulator.run(mode0, t0, x0, t1);
}

}  // namespace saltus::flow
