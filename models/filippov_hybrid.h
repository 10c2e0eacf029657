#pragma once
// A Filippov system (models/filippov.h) as a hybrid system
// (continuation/flow/hybrid_system.h): the second builder of the one hybrid
// structure, next to the mechanical one (continuation/flow/mechanical.h). It
// follows the event-driven method of Piiroinen & Kuznetsov (ACM TOMS 34(3),
// 2008): one-sided fields off the switching surface Sigma = {h = 0}, Utkin's
// equivalent control on it, and exits where the sliding flow reaches the
// boundary of the sliding region.
//
// Modes (FilippovMode):
//   F+        (h > 0)  x' = F+ = f(x, +mu);  guard h falling through 0
//   F-        (h < 0)  x' = F- = f(x, -mu);  guard h rising through 0
//   sliding   (h = 0)  x' = F_s, the sliding field (16), lambda = lambda_eq;
//             guards H(x, +b) = h_x.f(x, +b) rising through 0   -> F+
//                    H(x, -b) = h_x.f(x, -b) falling through 0  -> F-
//   escaping  (h = 0)  x' = F_s in the escaping region (18) (only as a start mode);
//             guards H(x, +mu) falling through 0 -> F-,  H(x, -mu) rising through 0 -> F+
//   two-fold  x' = 0, no guards: the run has reached a two-fold (19) and stays there.
// where b = FlowOptions::stick_bound >= mu (default mu). Every reset is the
// identity but one: the state is continuous, only the field changes; the
// start of a slide puts the state on Sigma (below, Drift).
//
// Sliding and escaping have a third guard, the sine of the angle between
// f_lambda and Sigma, s = h_x.f_lambda / (|h_x| |f_lambda|), reaching
// -+FlowOptions::two_fold_tolerance -> two-fold. At a two-fold h_x.f(x,0) and
// h_x.f_lambda vanish together, lambda_eq is 0/0 and F_s loses its accuracy
// (an adaptive integrator stalls there), and the future is not unique
// (Szalai & Jeffrey Sec. IV: a case-1 point is reached by sliding orbits in
// finite time and left through the escaping region in a one-parameter family
// of ways). The simulation therefore stops the orbit there, marked in the
// mode column; sampling the possible futures is the caller's choice.
//
// Why these guards. With lie0 = h_x.f(x,0), lie_l = h_x.f_lambda and
// lambda_eq = -lie0 / lie_l (15), H(x, lambda) = lie_l (lambda - lambda_eq).
// The sliding region (17) is lie_l < 0 and |lambda_eq| < mu; there
// H(x, +b) = lie_l (b - lambda_eq) < 0 and H(x, -b) = -lie_l (b + lambda_eq) > 0,
// and the first of them to reach 0 is where lambda_eq reaches +b or -b: the
// force needed to stay on Sigma is no longer available. For b = mu these are
// H+ = 0 and H- = 0, the boundaries (folds) of the sliding region. In the
// escaping region (18) lie_l > 0, and the signs turn round: H(x, +mu) > 0 falls
// to 0 where lambda_eq reaches +mu, beyond which both H+- < 0 and the orbit
// goes down into F- (and symmetrically up into F+).
//
// Which mode after h = 0 is hit from F+ or F- (next_mode), at the hit point:
//   lie_l < 0 and |lambda_eq| < b   -> sliding (the force can hold the orbit on Sigma)
//   an arrival at its own side's fold, to rounding (lands_at_fold: from F+
//   with H+ >= 0 < H-, from F- with H- <= 0 > H+) -> sliding
//   otherwise                       -> the other side (crossing)
// For b = mu the first line is exactly the sliding region (17): H+ < 0 < H-.
// An orbit of F- arrives with H- = h_x.F- >= 0 and one of F+ with H+ <= 0, so
// in the escaping region (H- < 0 < H+) no orbit arrives from either side:
// escaping points are reached only by leaving them (Filippov's convention; the
// solutions through them are not unique, see Szalai & Jeffrey Sec. IV). Hence
// the escaping mode is never entered by the simulation; it exists so that a
// run may start on Sigma in the escaping region and follow the sliding flow
// there until the orbit is sent off, by the user (the non-deterministic
// futures) or at the region's boundary.
//
// Static friction (b > mu). A mechanical stick phase holds while the friction
// needed, |lambda_eq|, stays within the static bound b, and slip resumes with
// the kinetic bound mu (models/stick_slip.h). That is the same structure with
// the entry test and the exit guards on b and the one-sided fields on mu. At
// an exit into F+ (lambda_eq = b, lie_l < 0) the new field points off Sigma:
// H+ = lie_l (mu - b) > 0, so the slip starts transversally.
//
// Saltation matrices (hybrid_system.h's formula with the identity reset,
// S = I + (F_out - F_in) g_x^T / (g_x . F_in), g the guard of the event):
//   crossing        S = I + (F_out - F_in) h_x^T / (h_x . F_in),
//   entering slide  S = I + (F_s - F_in) h_x^T / (h_x . F_in); since
//                   h_x . F_s = 0, h_x^T S = 0: S projects every perturbation
//                   onto T Sigma (rank n - 1). A periodic orbit that slides
//                   therefore has a zero Floquet multiplier;
//   leaving slide   S = I + (F_out - F_s) g_x^T / (g_x . F_s), g = H(x, +-b);
//                   for b = mu the exit point has lambda_eq = +-mu, so
//                   F_s = f(x, lambda_eq) = F+- = F_out and S = I (the fields
//                   agree at the exit); for b > mu, F_out - F_s = (+-mu -+ b)
//                   f_lambda != 0 and S != I.
// The simulator forms them from the exact guard gradients (g_x of H(x, +-b)
// involves the second derivatives of h and the Jacobian of f, both by
// ceres::Jet through Taylor<Jet, 1>, models/filippov.h) and exact fields, so
// the monodromy of an orbit with sliding is right to the integration
// tolerance. A tangential hit (h_x . F_in = 0, grazing) ends the run with
// the simulator's kGrazing status.
//
// Forced systems (a TimeDependentModel whose forced() is true: h(x, t) and
// f(x, t, lambda)). Everything above is applied to the autonomous extension
// in z = (x, t) with t' = 1 (WithTimeAsState: the usual device that makes
// a non-autonomous system autonomous, the time one more state, so that the
// formulas above hold unchanged). Its
// switching gradient is (h_x, h_t) and f_lambda has no t component, so
//   H(x, t, lambda) = h_x . f(x, t, lambda) + h_t,
//   lambda_eq = -(h_x . f(x, t, 0) + h_t) / (h_x . f_lambda),
// the equivalent control that keeps h(x(t), t) = 0 on a moving surface, and
// the regions (17)-(18) and the exit guards are those of the extension. The
// simulator's guard gradients then hold h_t and the saltation matrices the
// time derivatives, exactly (ceres::Jet through t as through x). On Sigma a
// perturbation at fixed t keeps h_x dx = 0 (constrained_directions).
//
// Drift. In the sliding mode h_x . F_s = 0 exactly on Sigma, so the orbit
// stays on Sigma up to the integration error (for a linear h with a constant
// gradient, as in the stick-slip oscillator, exactly). It starts there: at
// the start of a slide the reset projects the arrival, located only to the
// event tolerance (|h| ~ 1e-13), onto Sigma along h_x,
//   x+ = x - h(x) h_x / |h_x|^2    (one Newton step of h = 0; exact for a linear h).
// Without it a slide kept the arrival's offset: the damped dry-friction
// oscillator at F = 0.8, V = 0.2, w = 1.5 stuck 1.1e-13 below the belt
// speed, so the slip+ after the stick started below its own guard h = 0,
// crossed it rising unseen, and the shooting's period ended in slip- ("the
// period ends in slip-"). The saltation matrix is unchanged at h = 0: with
// the reset's Jacobian I - h_x h_x^T / |h_x|^2 (and its t-derivative
// -h_t h_x / |h_x|^2) the formula of hybrid_system.h reduces to the
// identity reset's I + (F_s - F_in) h_x^T / (h_x . F_in + h_t).

#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "continuation/flow/hybrid_system.h"
#include "continuation/flow/parameters.h"
#include "models/filippov.h"

namespace saltus::filippov {

enum FilippovMode : int {
  kPlusMode = 0,
  kMinusMode = 1,
  kSlidingMode = 2,
  kEscapingMode = 3,
  kTwoFoldMode = 4
};

struct FlowOptions {
  // The bound on |lambda_eq| that keeps an orbit on Sigma (a static friction
  // coefficient, in the units of lambda); NaN: the model's mu (Filippov's
  // convention). Must be >= mu: slip with the kinetic bound mu resumes where
  // the static one, b, is exceeded.
  double stick_bound = std::numeric_limits<double>::quiet_NaN();
  // Names of the modes F+, F-, sliding, escaping, two-fold (the trajectory's mode column).
  std::array<std::string, 5> mode_names = {"F+", "F-", "sliding", "escaping", "two-fold"};
  // |h_x.f_lambda| / (|h_x| |f_lambda|) at which a sliding or escaping orbit
  // has reached a two-fold (dimensionless, a sine; see above).
  double two_fold_tolerance = 1e-6;
  // initial_mode / check_mode: |h| at or below this is on Sigma (units of h).
  double surface_tolerance = 1e-9;
};

// A model whose switching function and field also depend on the time:
//   template <class T> T switching(const T* x, const T& t) const;
//   template <class T> void field(const T* x, const T& t, const T& lambda, T* f) const;
//   bool forced() const;   // whether they do (else the autonomous forms serve)
template <class M>
concept TimeDependentModel = Model<M> && requires(const M& m, const double* x, double t, double* f) {
  { m.switching(x, t) } -> std::convertible_to<double>;
  m.field(x, t, t, f);
  { m.forced() } -> std::convertible_to<bool>;
};

// The autonomous extension of a time-dependent model, a filippov::Model in
// z = (x, t) (n + 1 components) with t' = 1 (see the header).
template <class M>
struct WithTimeAsState {
  const M* model;
  double mu;
  int state_size() const { return model->state_size() + 1; }
  template <class T>
  T switching(const T* z) const {
    return model->switching(z, z[model->state_size()]);
  }
  template <class T>
  void field(const T* z, const T& lambda, T* f) const {
    const int n = model->state_size();
    model->field(z, z[n], lambda, f);
    f[n] = T(1.0);
  }
};

template <Model M>
class FilippovFlow {
 public:
  // Throws std::invalid_argument naming the bad value: mu <= 0 or not
  // finite, a stick bound below mu, empty or repeated mode names.
  FilippovFlow(M model, FlowOptions options = {})
      : model_(std::move(model)), options_(std::make_shared<const FlowOptions>(std::move(options))) {
    check();
  }

  // Throws std::invalid_argument naming a bad bound, mode name or tolerance.
  void check() const {
    if constexpr (requires { model_.check(); }) model_.check();
    const double mu = model_.mu;
    if (!(mu > 0.0) || !std::isfinite(mu)) {
      std::ostringstream msg;
      msg << "filippov flow: the force bound mu = " << mu << " must be positive and finite";
      throw std::invalid_argument(msg.str());
    }
    if (!(stick_bound() >= mu) || !std::isfinite(stick_bound())) {
      std::ostringstream msg;
      msg << "filippov flow: the stick bound b = " << stick_bound() << " must be finite and >= mu = " << mu
          << " (the static bound cannot be below the kinetic one)";
      throw std::invalid_argument(msg.str());
    }
    const FlowOptions& o = *options_;
    for (int i = 0; i < 5; ++i) {
      if (o.mode_names[i].empty())
        throw std::invalid_argument("filippov flow: mode name " + std::to_string(i) + " is empty");
      for (int j = 0; j < i; ++j)
        if (o.mode_names[i] == o.mode_names[j])
          throw std::invalid_argument("filippov flow: the mode name '" + o.mode_names[i] + "' is repeated");
    }
    if (!(o.two_fold_tolerance > 0.0 && o.two_fold_tolerance < 1.0)) {
      std::ostringstream msg;
      msg << "filippov flow: two_fold_tolerance = " << o.two_fold_tolerance << " must be in (0, 1) (a sine)";
      throw std::invalid_argument(msg.str());
    }
    if (!(o.surface_tolerance >= 0.0)) {
      std::ostringstream msg;
      msg << "filippov flow: surface_tolerance = " << o.surface_tolerance << " must be >= 0";
      throw std::invalid_argument(msg.str());
    }
  }

  // The model's parameters (continuation/flow/parameters.h), when it lists them.
  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) requires flow::Parameterized<M> {
    M::parameters(self.model_, visit);
  }
  template <class Q>
  auto cast() const requires flow::Parameterized<M> {
    using Cast = decltype(model_.template cast<Q>());
    return FilippovFlow<Cast>(model_.template cast<Q>(), options_);
  }

  const M& model() const { return model_; }
  const FlowOptions& options() const { return *options_; }
  // b: the model's own stick_bound() (a static friction coefficient) where it
  // has one, else FlowOptions::stick_bound, which defaults to mu.
  double stick_bound() const {
    if constexpr (requires { model_.stick_bound(); })
      return model_.stick_bound();
    else
      return std::isnan(options_->stick_bound) ? double(model_.mu) : options_->stick_bound;
  }

  // ---- the AutoDiffHybrid functor interface ----------------------------------

  int dimension() const { return model_.state_size(); }
  std::vector<std::string> state_names() const {
    if constexpr (requires { model_.state_names(); }) return model_.state_names();
    std::vector<std::string> names;
    for (int i = 0; i < dimension(); ++i) names.push_back("x" + std::to_string(i));
    return names;
  }
  std::string mode_name(int mode) const {
    require_mode(mode);
    return options_->mode_names[mode];
  }
  // The mode with this name, or -1.
  int mode_index(const std::string& name) const {
    for (int i = 0; i < 5; ++i)
      if (options_->mode_names[i] == name) return i;
    return -1;
  }
  int guard_count(int mode) const {
    require_mode(mode);
    return mode == kPlusMode || mode == kMinusMode ? 1 : mode == kTwoFoldMode ? 0 : 3;
  }
  std::string guard_name(int mode, int k) const {
    const auto& name = options_->mode_names;
    if (k == 2) return "reach a two-fold (h_x . f_lambda = 0) from " + name[mode];
    switch (mode) {
      case kPlusMode:
        return "h = 0 from above";
      case kMinusMode:
        return "h = 0 from below";
      case kSlidingMode:
        return k == 0 ? "leave " + name[2] + " (lambda_eq = +b) into " + name[0]
                      : "leave " + name[2] + " (lambda_eq = -b) into " + name[1];
      default:
        return k == 0 ? "leave " + name[3] + " (lambda_eq = +mu) into " + name[1]
                      : "leave " + name[3] + " (lambda_eq = -mu) into " + name[0];
    }
  }
  flow::Crossing crossing(int mode, int k) const {
    switch (mode) {
      case kPlusMode:
        return flow::Crossing::kFalling;
      case kMinusMode:
        return flow::Crossing::kRising;
      case kSlidingMode:
        return k == 1 ? flow::Crossing::kFalling : flow::Crossing::kRising;
      default:
        return k == 0   ? flow::Crossing::kFalling
               : k == 1 ? flow::Crossing::kRising
                        : flow::Crossing::kFalling;
    }
  }

  // Whether the model depends on the time (its forms in (x, t) are used).
  bool forced() const {
    if constexpr (TimeDependentModel<M>)
      return model_.forced();
    else
      return false;
  }

  template <class T>
  void field(int mode, const T& t, const T* x, T* f) const {
    if constexpr (TimeDependentModel<M>)
      if (model_.forced()) {
        const int n = dimension();
        std::vector<T> z(x, x + n), g(n + 1);
        z.push_back(t);
        field_of(timed_model(), mode, z.data(), g.data());
        std::copy(g.begin(), g.begin() + n, f);
        return;
      }
    field_of(model_, mode, x, f);
  }

  template <class T>
  T guard(int mode, int k, const T& t, const T* x) const {
    if constexpr (TimeDependentModel<M>)
      if (model_.forced()) {
        std::vector<T> z(x, x + dimension());
        z.push_back(t);
        return guard_of(timed_model(), mode, k, z.data());
      }
    return guard_of(model_, mode, k, x);
  }

 private:
  // The field and guards of a model, autonomous or the time-extended one.
  template <class T, class N>
  void field_of(const N& model, int mode, const T* x, T* f) const {
    switch (mode) {
      case kPlusMode:
        model.field(x, T(model.mu), f);
        return;
      case kMinusMode:
        model.field(x, T(-model.mu), f);
        return;
      case kTwoFoldMode:
        for (int i = 0; i < model.state_size(); ++i) f[i] = T(0.0);
        return;
      default:
        sliding_field(model, x, f);
        return;  // (16)
    }
  }

  template <class T, class N>
  T guard_of(const N& model, int mode, int k, const T* x) const {
    if (mode == kPlusMode || mode == kMinusMode) return model.switching(x);
    if (k == 2) {
      // s -+ tolerance: negative in the sliding region (h_x.f_lambda < 0), rising to 0 near a two-fold.
      const int n = model.state_size();
      std::vector<T> f0(n), f_lambda(n), h_x(n);
      split_field(model, x, f0.data(), f_lambda.data());
      switching_gradient(model, x, h_x.data());
      // Over the states only (a forced model's h_t is no direction of Sigma in x).
      T dot = T(0.0), hh = T(0.0), ff = T(0.0);
      for (int i = 0; i < dimension(); ++i) {
        dot += h_x[i] * f_lambda[i];
        hh += h_x[i] * h_x[i];
        ff += f_lambda[i] * f_lambda[i];
      }
      using std::sqrt;
      const T sine = dot / sqrt(hh * ff);
      return mode == kSlidingMode ? sine + options_->two_fold_tolerance : sine - options_->two_fold_tolerance;
    }
    const double bound = mode == kSlidingMode ? stick_bound() : model.mu;
    return lie_derivative(model, x, T(k == 0 ? bound : -bound));
  }

 public:
  int next_mode(int mode, int k, double t, const double* x) const {
    switch (mode) {
      case kPlusMode:
      case kMinusMode:
        return holds_on_surface(x, t) || lands_at_fold(mode, x, t) ? kSlidingMode : 1 - mode;
      case kSlidingMode:
        return k == 0 ? kPlusMode : k == 1 ? kMinusMode : kTwoFoldMode;
      case kEscapingMode:
        return k == 0 ? kMinusMode : k == 1 ? kPlusMode : kTwoFoldMode;
      default:
        return mode;
    }
  }

  template <class T>
  void reset(int mode, int, int next, const T& t, const T* x, T* x_plus) const {
    const int n = dimension();
    for (int i = 0; i < n; ++i) x_plus[i] = x[i];
    if (next != kSlidingMode || (mode != kPlusMode && mode != kMinusMode)) return;
    // Onto Sigma (Drift, above).
    if constexpr (TimeDependentModel<M>)
      if (model_.forced()) {
        std::vector<T> z(x, x + n), g(n + 1);
        z.push_back(t);
        const auto timed = timed_model();
        switching_gradient(timed, z.data(), g.data());
        project(timed.switching(z.data()), g.data(), x_plus);
        return;
      }
    std::vector<T> g(n);
    switching_gradient(model_, x, g.data());
    project(model_.switching(x), g.data(), x_plus);
  }

  // On Sigma (sliding, escaping) a perturbation keeps h = 0: h_x dx = 0.
  // Lyapunov exponents set the normal one to zero there, as on a mechanical
  // constraint (HybridSystem::constrained_directions); elsewhere none.
  void constrained_directions(int mode, double t, const double* x, Matrix* C) const {
    if (mode != kSlidingMode && mode != kEscapingMode) {
      C->resize(0, dimension());
      return;
    }
    C->resize(1, dimension());
    if constexpr (TimeDependentModel<M>)
      if (model_.forced()) {
        const Vector z = at_time(x, t);
        Vector g(z.size());
        switching_gradient(timed_model(), z.data(), g.data());
        *C = g.head(dimension()).transpose();  // h_x: a perturbation at fixed t
        return;
      }
    switching_gradient(model_, x, C->data());  // a 1 x n matrix is contiguous
  }

  // An arrival from F+ at a point where both fields point up (H+ >= 0 <
  // H-), or from F- where both point down (H- <= 0 > H+): no orbit of the
  // arrival's side reaches Sigma there transversally, so the hit is an
  // arrival at the fold of that side's field to rounding. It happens next to
  // a switching-sliding (analyses/sliding/sliding_bifurcation.h, SS): F-
  // crosses at x_c with H+(x_c) ~ 0+, and the F+ orbit, bending back at once
  // (an invisible fold), lands again ~1e-12 later, where its H+ ~ -H+(x_c)
  // is still rounding's sign. Sent on across Sigma (the crossing rule) it
  // would meet a field pointing back at once, crossing to and fro until the
  // simulation stops with a Zeno accumulation (measured at F = 0.6, V = 0.2,
  // w ~ 3.47 of the forced dry-friction oscillator); the Filippov limit of
  // the vanishing excursion is the slide, which is where it goes.
  bool lands_at_fold(int mode, const double* x, double t) const {
    if constexpr (TimeDependentModel<M>)
      if (model_.forced()) return lands_at_fold(timed_model(), mode, at_time(x, t).data());
    return lands_at_fold(model_, mode, x);
  }

  // ---- for callers -------------------------------------------------------------

  // At a point of Sigma: does the force hold an orbit there (lie_l < 0 and
  // |lambda_eq| < b)? The entry test of next_mode.
  // (At the time t: a forced model's; an autonomous one ignores it.)
  bool holds_on_surface(const double* x, double t = 0.0) const {
    if constexpr (TimeDependentModel<M>)
      if (model_.forced()) return holds(timed_model(), at_time(x, t).data());
    return holds(model_, x);
  }

  // The mode a run starting at x (at the time t) should have: by the sign of
  // h off Sigma; on Sigma (|h| <= surface_tolerance) sliding where the force
  // holds, escaping in the escaping region (18), else the side the orbit
  // moves into.
  int initial_mode(const Vector& x, double t = 0.0) const {
    detail::check_point(x, dimension(), "initial_mode");
    if constexpr (TimeDependentModel<M>)
      if (model_.forced()) return start_mode(timed_model(), at_time(x.data(), t).data());
    return start_mode(model_, x.data());
  }

  // Throws std::invalid_argument naming the values when `mode` cannot start
  // at x (at the time t): F+ needs h >= -tol, F- h <= tol, sliding and
  // escaping |h| <= tol and x in their region.
  void check_mode(int mode, const Vector& x, double t = 0.0) const {
    detail::check_point(x, dimension(), "check_mode");
    require_mode(mode);
    double h = model_.switching(x.data());
    if constexpr (TimeDependentModel<M>)
      if (model_.forced()) h = model_.switching(x.data(), t);
    const double tol = options_->surface_tolerance;
    std::ostringstream msg;
    msg << "filippov flow: the state x = " << detail::format_point(x) << " (h = " << h
        << ") cannot start in mode '" << mode_name(mode) << "': ";
    if (mode == kPlusMode && h < -tol)
      msg << "it needs h >= 0";
    else if (mode == kMinusMode && h > tol)
      msg << "it needs h <= 0";
    else if (mode >= kSlidingMode && std::abs(h) > tol)
      msg << "it needs |h| <= " << tol << " (on the switching surface)";
    else if (mode == kSlidingMode && !holds_on_surface(x.data(), t))
      msg << "the force cannot hold the orbit on the surface there (|lambda_eq| >= b = " << stick_bound()
          << " or h_x . f_lambda >= 0)";
    else if (mode == kEscapingMode && initial_mode(x, t) != kEscapingMode)
      msg << "x is not in the escaping region (18)";
    else
      return;
    msg << "; start in mode '" << mode_name(initial_mode(x, t)) << "'";
    throw std::invalid_argument(msg.str());
  }

 private:
  void require_mode(int mode) const {
    if (mode < 0 || mode > 4)
      throw std::invalid_argument("filippov flow: mode " + std::to_string(mode) +
                                  " does not exist (0: F+, 1: F-, 2: sliding, 3: escaping, 4: two-fold)");
  }

  // A forced model in z = (x, t) at double (the decisions).
  WithTimeAsState<M> timed_model() const { return {&model_, double(model_.mu)}; }
  Vector at_time(const double* x, double t) const {
    Vector z(dimension() + 1);
    for (int i = 0; i < dimension(); ++i) z[i] = x[i];
    z[dimension()] = t;
    return z;
  }
  template <class N>
  bool holds(const N& model, const double* x) const {
    double lie0, lie_lambda;
    split_lie_derivatives(model, x, &lie0, &lie_lambda);
    return lie_lambda < 0.0 && std::abs(lie0) < stick_bound() * -lie_lambda;
  }
  // x -= h g / |g|^2 over the states (a forced model's g_t is no direction in x).
  template <class T>
  void project(const T& h, const T* g, T* x) const {
    T gg = T(0.0);
    for (int i = 0; i < dimension(); ++i) gg += g[i] * g[i];
    if (!(gg > T(0.0))) return;
    for (int i = 0; i < dimension(); ++i) x[i] -= h * g[i] / gg;
  }
  template <class N>
  bool lands_at_fold(const N& model, int mode, const double* x) const {
    const double plus = lie_derivative(model, x, double(model.mu));
    const double minus = lie_derivative(model, x, -double(model.mu));
    return mode == kPlusMode ? plus >= 0.0 && minus > 0.0 : minus <= 0.0 && plus < 0.0;
  }
  template <class N>
  int start_mode(const N& model, const double* x) const {
    const double h = model.switching(x);
    if (h > options_->surface_tolerance) return kPlusMode;
    if (h < -options_->surface_tolerance) return kMinusMode;
    if (holds(model, x)) return kSlidingMode;
    const double plus = lie_derivative(model, x, model.mu);
    const double minus = lie_derivative(model, x, -model.mu);
    if (minus < 0.0 && plus > 0.0) return kEscapingMode;
    return plus > 0.0 ? kPlusMode : kMinusMode;
  }

  template <Model>
  friend class FilippovFlow;
  // A cast shares the options (no copy per evaluation) and is not checked again.
  FilippovFlow(M model, std::shared_ptr<const FlowOptions> options)
      : model_(std::move(model)), options_(std::move(options)) {}

  M model_;
  std::shared_ptr<const FlowOptions> options_;
};

// The hybrid system of a Filippov model, with its exact Jacobians.
template <Model M>
std::shared_ptr<flow::AutoDiffHybrid<FilippovFlow<M>>> make_filippov_flow(M model, FlowOptions options = {}) {
  return flow::make_hybrid(FilippovFlow<M>(std::move(model), std::move(options)));
}

}  // namespace saltus::filippov
