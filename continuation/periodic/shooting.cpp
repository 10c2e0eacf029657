#include "continuation/periodic/shooting.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "continuation/periodic/monodromy_operator.h"

namespace saltus::periodic {

std::string ShootingOptions::check() const {
  std::ostringstream why;
  if (!(period > 0) || !std::isfinite(period))
    why << "period = " << period << " must be positive and finite";
  else if (!std::isfinite(t0))
    why << "t0 = " << t0 << " must be finite";
  else if (mode < 0)
    why << "mode = " << mode << " must be >= 0";
  else if (!(phase >= 0.0 && phase < 1.0))
    why << "phase = " << phase << " must be in [0, 1)";
  else if (!(cut_margin >= 0.0 && cut_margin <= 0.25))
    why << "cut_margin = " << cut_margin << " must be in [0, 0.25] (0: the cut never moves)";
  else if (!(stepping_tolerance >= 0.0 && stepping_tolerance < 1.0))
    why << "stepping_tolerance = " << stepping_tolerance << " must be in [0, 1) (0: the simulation's)";
  else if (matrix_free_from < 1)
    why << "matrix_free_from = " << matrix_free_from << " must be >= 1";
  else if (multipliers < 1)
    why << "multipliers = " << multipliers << " must be >= 1";
  else if (arnoldi_subspace != 0 && arnoldi_subspace < multipliers + 2)
    why << "arnoldi_subspace = " << arnoldi_subspace
        << " must be 0 (automatic) or >= multipliers + 2 = " << multipliers + 2;
  else
    why << simulation.check();
  return why.str();
}

ShootingSystem::ShootingSystem(std::shared_ptr<const flow::HybridSystem> system, int parameters,
                               ShootingOptions options, const Vector& reference)
    : system_(std::move(system)), q_(parameters), options_(std::move(options)) {
  if (!system_) throw std::invalid_argument("shooting: no hybrid system");
  n_ = system_->dimension() - q_;
  if (q_ < 0 || n_ < 1)
    throw std::invalid_argument("shooting: " + std::to_string(q_) + " parameters in a system of dimension " +
                                std::to_string(system_->dimension()));
  if (const std::string why = options_.check(); !why.empty())
    throw std::invalid_argument("shooting options: " + why);
  options_.simulation.variational = true;
  options_.simulation.output_interval = 0.0;
  // The parameters are the last q components (p' = 0, unchanged by resets):
  // their rows of Phi are (0 I) and need no integration.
  options_.simulation.constant_components = q_;
  if (options_.autonomous) {
    if (reference.size() != n_ + q_ || !reference.allFinite())
      throw std::invalid_argument("autonomous shooting needs a finite reference point (x, p) of size " +
                                  std::to_string(n_ + q_));
    Vector f;
    system_->field(options_.mode, options_.t0, reference, &f);
    x_ref_ = reference.head(n_);
    f_ref_ = f.head(n_);
    if (!(f_ref_.norm() > 0))
      throw std::invalid_argument(
          "autonomous shooting: the field vanishes at the reference point (an equilibrium)");
  }
  cuts_.emplace_back(options_.period_of ? options_.phase : options_.t0, options_.mode);
  // Matrix-free by size (ShootingOptions::linear_solver).
  if (options_.linear_solver != ShootingLinearSolver::kDense) {
    bool liftable = false;
    try {
      liftable = system_->tangent_lifted() != nullptr;
    } catch (const std::logic_error&) {
    }
    if (options_.linear_solver == ShootingLinearSolver::kMatrixFree && !liftable)
      throw std::invalid_argument(
          "shooting: matrix-free continuation needs a system with a tangent-lifted form "
          "(flow::tangent_liftable_v); use the dense linear solver");
    matrix_free_ = liftable && (options_.linear_solver == ShootingLinearSolver::kMatrixFree ||
                                state_size() >= options_.matrix_free_from);
  }
}

double ShootingSystem::cut_key(double t0, const Vector& u) const {
  if (options_.autonomous || !options_.period_of) return t0;
  const double phase = std::fmod(t0 / options_.period_of(u.tail(q_), nullptr), 1.0);
  return phase < 0 ? phase + 1.0 : phase;
}

bool ShootingSystem::recut(Vector* u, Vector* tangent) const {
  if (!(options_.cut_margin > 0.0)) return false;
  const Vector& uu = *u;
  const double t0 = start_time(uu), T = period(uu);
  if (!(T > 0)) return false;
  flow::SimulationOptions alone = options_.simulation;
  alone.variational = false;
  const flow::Trajectory tr = flow::simulate(*system_, options_.mode, t0, hybrid_state(uu), t0 + T, alone);
  if (!tr.ok()) throw std::runtime_error("shooting over one period failed: " + tr.message);
  // The events' times from the cut, in [0, T], with the mode after each; an
  // orbit that ends in another mode than it started has an event at its cut.
  std::vector<std::pair<double, int>> s;
  for (const auto& e : tr.events) s.emplace_back(std::clamp(e.t - t0, 0.0, T), e.mode_after);
  if (tr.mode_end != options_.mode) s.emplace_back(0.0, options_.mode);
  if (s.empty()) return false;
  std::sort(s.begin(), s.end());
  const double margin = options_.cut_margin * T;
  if (s.front().first >= margin && T - s.back().first >= margin && tr.mode_end == options_.mode) return false;
  // The middle of the longest interval between successive events,
  // cyclically, among those in the cut's mode: a cut inside a phase of
  // sustained contact (a constrained mode) would make the shooting map
  // degenerate, and the user's mode is where the orbit is free.
  double gap = 0.0, shift = 0.0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double from = s[i].first, to = i + 1 < s.size() ? s[i + 1].first : s.front().first + T;
    if (s[i].second == options_.mode && to - from > gap) gap = to - from, shift = 0.5 * (from + to);
  }
  // Events crowded over the whole period (chatter): no cut is better.
  if (!(0.5 * gap > 2.0 * margin)) return false;
  if (shift >= T) shift -= T;
  if (!(shift > 0.0)) return false;
  const double residual_before = (tr.x_end.head(n_) - uu.head(n_)).lpNorm<Eigen::Infinity>();

  flow::SimulationOptions moving = options_.simulation;
  moving.variational = true;
  const flow::Trajectory to =
      flow::simulate(*system_, options_.mode, t0, hybrid_state(uu), t0 + shift, moving);
  if (!to.ok()) throw std::runtime_error("moving the cut of the orbit failed: " + to.message);
  const Matrix& Phi = to.transition_matrix;  // over (x, p), from t0 to t0 + shift
  Vector t_mapped = *tangent;
  t_mapped.head(n_) =
      Phi.topLeftCorner(n_, n_) * tangent->head(n_) + Phi.topRightCorner(n_, q_) * tangent->tail(q_);
  Vector moved = uu;
  moved.head(n_) = to.x_end.head(n_);
  const double phase_before = options_.phase, t0_before = options_.t0;
  const int mode_before = options_.mode;
  if (!options_.autonomous && options_.period_of) {
    // t0(p) = phase T(p) at both cuts: the ends move with T (jacobian()).
    options_.phase += shift / T;
    Vector f_end, f_start, dT_dp;
    system_->field(to.mode_end, to.t_end, to.x_end, &f_end);
    system_->field(options_.mode, t0, hybrid_state(uu), &f_start);
    options_.period_of(uu.tail(q_), &dT_dp);
    t_mapped.head(n_) +=
        (options_.phase * f_end.head(n_) - phase_before * (Phi.topLeftCorner(n_, n_) * f_start.head(n_))) *
        dT_dp.dot(tangent->tail(q_));
    if (options_.phase >= 1.0) options_.phase -= 1.0;  // one period on: the same state
    if (!(options_.phase >= 0.0 && options_.phase < 1.0)) options_.phase = 0.0;
  } else {
    options_.t0 = t0 + shift;
  }
  options_.mode = to.mode_end;
  // The orbit from the new cut closes as well as from the old one, or the
  // cut stays (a mode the shooting cannot keep: the old cut is restored).
  const flow::Trajectory check = flow::simulate(*system_, options_.mode, start_time(moved),
                                                hybrid_state(moved), start_time(moved) + T, alone);
  const double residual =
      check.ok() ? (check.x_end.head(n_) - moved.head(n_)).lpNorm<Eigen::Infinity>() : HUGE_VAL;
  if (!check.ok() || check.mode_end != options_.mode ||
      !(residual <= 100.0 * residual_before + 1e-6 * (1.0 + moved.head(n_).lpNorm<Eigen::Infinity>()))) {
    options_.t0 = t0_before;
    options_.phase = phase_before;
    options_.mode = mode_before;
    return false;
  }
  cuts_.emplace_back(options_.period_of && !options_.autonomous ? options_.phase : options_.t0,
                     options_.mode);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cached_.reset();
    cached_u_ = Vector();
  }
  *u = moved;
  *tangent = t_mapped;
  return true;
}

std::shared_ptr<const ShootingSystem> ShootingSystem::at_cut(double t0, const Vector& u) const {
  ShootingOptions options = options_;
  const double key = cut_key(t0, u);
  if (!options.autonomous && options.period_of)
    options.phase = key;
  else
    options.t0 = t0;
  // The mode of the nearest cut taken (they are far apart: at least cut_margin T).
  double closest = std::numeric_limits<double>::infinity();
  for (const auto& [k, mode] : cuts_)
    if (std::abs(k - key) < closest) closest = std::abs(k - key), options.mode = mode;
  return std::make_shared<const ShootingSystem>(system_, q_, options,
                                                options.autonomous ? hybrid_state(u) : Vector());
}

Vector ShootingSystem::hybrid_state(const Vector& u) const {
  Vector z(n_ + q_);
  z.head(n_) = u.head(n_);
  z.tail(q_) = u.tail(q_);
  return z;
}

double ShootingSystem::start_time(const Vector& u) const {
  if (options_.autonomous || !options_.period_of) return options_.t0;
  return options_.phase * options_.period_of(u.tail(q_), nullptr);
}

double ShootingSystem::period(const Vector& u) const {
  if (options_.autonomous) return u[n_];
  if (options_.period_of) return options_.period_of(u.tail(q_), nullptr);
  return options_.period;
}

std::vector<std::string> ShootingSystem::state_names() const {
  auto names = system_->state_names();
  names.resize(n_);
  if (options_.autonomous) names.push_back("T");
  return names;
}

std::vector<std::string> ShootingSystem::parameter_names() const {
  const auto names = system_->state_names();
  return std::vector<std::string>(names.begin() + n_, names.end());
}

std::shared_ptr<const flow::Trajectory> ShootingSystem::trajectory(const Vector& u, bool variational) const {
  std::lock_guard<std::mutex> lock(mutex_);
  // The state alone is always integrated afresh: a chord corrector compares
  // residuals of one kind only.
  if (variational && cached_ && cached_u_.size() == u.size() && cached_u_ == u) return cached_;
  if (!(period(u) > 0))
    throw std::runtime_error("shooting: the period T = " + std::to_string(period(u)) + " is not positive");
  const double t0 = start_time(u), t1 = t0 + period(u);
  flow::SimulationOptions simulation = options_.simulation;
  simulation.variational = variational;
  // Not yet searched inside the steps (SimulationOptions::guard_search):
  // with the search on, a branch of orbits approaching a grazing from the
  // side without the new contact sees it as soon as the predictor passes
  // the grazing, and the corrector then meets Nordmark's square-root
  // singularity and fails, where testfunctions/grazing.h expects a
  // converged orbit beyond it to bracket the GR (tests/continuation/
  // periodic/grazing.test.cpp, examples/bouncing_ball_grazing.json). Until
  // the grazing test brackets from the corrector's failure, shooting checks
  // the guards at the step ends (and bounds its steps with max_step where a
  // slow impact could hide, as the run files do).
  simulation.guard_search = false;
  simulation.record_steps = variational;  // the state alone serves residual_alone: x_end
  if (options_.stepping_tolerance > 0.0)
    simulation.absolute_tolerance = simulation.relative_tolerance = options_.stepping_tolerance;
  flow::Trajectory tr = flow::simulate(*system_, options_.mode, t0, hybrid_state(u), t1, simulation);
  if (!tr.ok()) throw std::runtime_error("shooting over one period failed: " + tr.message);
  if (tr.mode_end != options_.mode) {
    // A period that ends in another mode than it started may have stepped
    // over an event of its own sequence inside one step: a Filippov stick
    // (x' = V, which the Runge-Kutta steps integrate exactly, so that their
    // error control lets a step grow over much of the period) whose end
    // (|lambda| reaching 1) comes and goes between two step ends stays
    // stuck to the end of the period (the forced dry-friction oscillator at
    // F = 0.8, V = 0.2: tests/studies/dry_friction_closed_form.test.cpp).
    // Such a period is integrated again with the guards searched inside the
    // steps, and taken where it then ends in the cut's mode; one that still
    // does not is cut elsewhere (recut()). Only here: a period that closes
    // in its mode keeps the step ends' events (above: why).
    flow::SimulationOptions searched = simulation;
    searched.guard_search = true;
    flow::Trajectory again = flow::simulate(*system_, options_.mode, t0, hybrid_state(u), t1, searched);
    if (again.ok() && again.mode_end == options_.mode) tr = std::move(again);
  }
  if (tr.mode_end != options_.mode)
    throw std::runtime_error("shooting: the period ends in " + system_->mode_name(tr.mode_end) + ", not in " +
                             system_->mode_name(options_.mode) + "; cut the orbit at another t0");
  auto shared = std::make_shared<const flow::Trajectory>(std::move(tr));
  if (variational) {  // only these serve jacobian() too
    cached_ = shared;
    cached_u_ = u;
    std::lock_guard<std::mutex> memory(monodromies_->mutex);
    auto& entries = monodromies_->entries;
    entries.push_back(
        {u, shared->transition_matrix.topLeftCorner(n_, n_), !(options_.stepping_tolerance > 0.0)});
    const std::size_t doubles = static_cast<std::size_t>(u.size() + n_ * n_);
    if (entries.size() > std::clamp<std::size_t>((std::size_t{1} << 20) / doubles, 16, 4096))
      entries.pop_front();
  }
  return shared;
}

void ShootingSystem::residual(const double* u, double* f) const {
  const Vector uu = Eigen::Map<const Vector>(u, size());
  residual_from(uu, *trajectory(uu), f);
}

void ShootingSystem::residual_alone(const double* u, double* f) const {
  const Vector uu = Eigen::Map<const Vector>(u, size());
  residual_from(uu, *trajectory(uu, false), f);
}

void ShootingSystem::residual_from(const Vector& u, const flow::Trajectory& tr, double* f) const {
  for (int i = 0; i < n_; ++i) f[i] = tr.x_end[i] - u[i];
  if (options_.autonomous) {
    std::lock_guard<std::mutex> lock(mutex_);  // accept() moves the plane
    f[n_] = f_ref_.dot(u.head(n_) - x_ref_);
  }
}

void ShootingSystem::jacobian(const double* u, Matrix* J) const {
  const Vector uu = Eigen::Map<const Vector>(u, size());
  const auto tr = trajectory(uu);
  const Matrix& Phi = tr->transition_matrix;  // over (x, p)
  J->setZero(state_size(), size());
  J->topLeftCorner(n_, n_) = Phi.topLeftCorner(n_, n_) - Matrix::Identity(n_, n_);
  J->topRightCorner(n_, q_) = Phi.topRightCorner(n_, q_);
  if (options_.autonomous) {
    Vector f;
    system_->field(tr->mode_end, tr->t_end, tr->x_end, &f);
    J->col(n_).head(n_) = f.head(n_);  // d phi_T / dT
    J->row(n_).head(n_) = phase_normal().transpose();
  } else if (options_.period_of) {
    // phi(t1(p); t0(p), x, p) with t0 = phase T, t1 = (phase + 1) T: the
    // end point moves with the field, f(t1) dt1/dp, and a later start is a
    // perturbation -f(t0) dt0 carried by Phi_xx.
    Vector f_end, f_start, dT_dp;
    system_->field(tr->mode_end, tr->t_end, tr->x_end, &f_end);
    system_->field(options_.mode, start_time(uu), hybrid_state(uu), &f_start);
    options_.period_of(uu.tail(q_), &dT_dp);
    const Vector moved = (options_.phase + 1.0) * f_end.head(n_) -
                         options_.phase * (Phi.topLeftCorner(n_, n_) * f_start.head(n_));
    J->topRightCorner(n_, q_) += moved * dT_dp.transpose();
  }
}

Vector ShootingSystem::jacobian_times(const Vector& u, const Vector& d) const {
  if (d.size() != size())
    throw std::invalid_argument("shooting: a direction of size " + std::to_string(d.size()) +
                                ", the system's is " + std::to_string(size()));
  const int m = state_size();
  Vector out = Vector::Zero(m);
  if (!(d.squaredNorm() > 0)) return out;
  const MonodromyOperator monodromy(*this, u);
  // w = (dx, dp) through the period: Phi_xx dx + Phi_xp dp.
  Vector w(n_ + q_);
  w << d.head(n_), d.tail(q_);
  double dt1 = 0.0;  // the end's motion, (phase + 1) dT/dp . dp (period_of)
  if (!options_.autonomous && options_.period_of) {
    // As jacobian(): a later start is the perturbation -f(t0) dt0 that Phi_xx carries.
    Vector f_start, dT_dp;
    options_.period_of(u.tail(q_), &dT_dp);
    const double dT = dT_dp.dot(d.tail(q_));
    system_->field(options_.mode, start_time(u), hybrid_state(u), &f_start);
    w.head(n_) -= options_.phase * dT * f_start.head(n_);
    dt1 = (options_.phase + 1.0) * dT;
  }
  out.head(n_) = monodromy.apply_state_and_parameters(w) - d.head(n_);
  if (options_.autonomous) {
    out.head(n_) += monodromy.end_field() * d[n_];  // d phi_T / dT
    out[n_] = phase_normal().dot(d.head(n_));
  } else if (dt1 != 0.0) {
    out.head(n_) += monodromy.end_field() * dt1;
  }
  return out;
}

Eigen::VectorXcd ShootingSystem::leading_multipliers(const Vector& u, double* unresolved_bound) const {
  {
    std::lock_guard<std::mutex> lock(leading_->mutex);
    for (const Leading::Entry& e : leading_->entries)
      if (e.u.size() == u.size() && e.u == u) {
        if (unresolved_bound) *unresolved_bound = e.unresolved_bound;
        return e.mu;
      }
  }
  Eigen::VectorXcd mu;
  double bound = 0.0;
  if (matrix_free_) {
    const MonodromyOperator monodromy(*this, u);
    ArnoldiOptions arnoldi;
    arnoldi.count = options_.multipliers;
    arnoldi.subspace = options_.arnoldi_subspace;
    const ArnoldiMultipliers a = arnoldi_multipliers(monodromy, arnoldi);
    if (!a.converged)
      throw std::runtime_error("the leading Floquet multipliers did not converge: " + a.message);
    mu = a.multipliers;
    bound = a.unresolved_bound;
  } else {
    mu = floquet_multipliers(monodromy(u));
  }
  // A complex multiplier whose conjugate is cut off at the end is left out:
  // the tests' products are then real.
  int count = std::min<int>(options_.multipliers, static_cast<int>(mu.size()));
  if (count > 0) {
    const std::complex<double> last = mu[count - 1];
    bool paired = !(std::abs(last.imag()) > 1e-12 * std::abs(last));  // real: nothing to pair
    for (int i = 0; i + 1 < count && !paired; ++i)
      paired = std::abs(mu[i] - std::conj(last)) <= 1e-8 * std::abs(last);
    if (!paired) --count;
  }
  mu.conservativeResize(count);
  std::lock_guard<std::mutex> lock(leading_->mutex);
  leading_->entries.push_back({u, mu, bound});
  if (leading_->entries.size() > 8) leading_->entries.pop_front();
  if (unresolved_bound) *unresolved_bound = bound;
  return mu;
}

void ShootingSystem::second_derivative(const double*, const double*, Matrix*) const {
  throw std::logic_error(
      "second derivatives of a shooting map are not available: fold curves and branch switching of periodic "
      "orbits are not supported yet");
}

std::shared_ptr<const ShootingSystem> ShootingSystem::refined_shooting() const {
  if (!(options_.stepping_tolerance > 0.0)) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  return std::shared_ptr<const ShootingSystem>(new ShootingSystem(*this, Refined{}));
}

ShootingSystem::ShootingSystem(const ShootingSystem& coarse, Refined)
    : system_(coarse.system_),
      n_(coarse.n_),
      q_(coarse.q_),
      x_ref_(coarse.x_ref_),
      f_ref_(coarse.f_ref_),
      options_(coarse.options_),
      cuts_(coarse.cuts_),
      monodromies_(coarse.monodromies_),
      matrix_free_(coarse.matrix_free_),
      leading_(coarse.leading_) {
  options_.stepping_tolerance = 0.0;  // the simulation's tolerance throughout
}

void ShootingSystem::accept(const Vector& u) const {
  if (!options_.autonomous) return;
  Vector f;
  system_->field(options_.mode, options_.t0, hybrid_state(u), &f);
  std::lock_guard<std::mutex> lock(mutex_);
  x_ref_ = u.head(n_);
  f_ref_ = f.head(n_);
}

Matrix ShootingSystem::monodromy(const Vector& u) const {
  {
    const bool fine = !(options_.stepping_tolerance > 0.0);
    std::lock_guard<std::mutex> lock(monodromies_->mutex);
    const auto& entries = monodromies_->entries;
    for (auto it = entries.rbegin(); it != entries.rend(); ++it)
      if (it->fine == fine && it->u.size() == u.size() && it->u == u) return it->M;
  }
  return trajectory(u)->transition_matrix.topLeftCorner(n_, n_);
}

Eigen::VectorXcd nontrivial_multipliers(const Matrix& monodromy, std::complex<double>* trivial) {
  return without_trivial(floquet_multipliers(monodromy), trivial);
}

Eigen::VectorXcd without_trivial(const Eigen::VectorXcd& mu, std::complex<double>* trivial) {
  if (mu.size() == 0) return mu;
  int k = 0;
  for (int i = 1; i < mu.size(); ++i)
    if (std::abs(mu[i] - 1.0) < std::abs(mu[k] - 1.0)) k = i;
  if (trivial) *trivial = mu[k];
  Eigen::VectorXcd rest(mu.size() - 1);
  for (int i = 0, j = 0; i < mu.size(); ++i)
    if (i != k) rest[j++] = mu[i];
  return rest;
}

Eigen::VectorXcd floquet_multipliers(const Matrix& monodromy) {
  Eigen::VectorXcd mu = Eigen::EigenSolver<Matrix>(monodromy).eigenvalues();
  std::sort(
      mu.data(), mu.data() + mu.size(),
      [](const std::complex<double>& a, const std::complex<double>& b) { return std::abs(a) > std::abs(b); });
  return mu;
}

}  // namespace saltus::periodic
