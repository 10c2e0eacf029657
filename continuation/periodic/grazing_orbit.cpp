#include "continuation/periodic/grazing_orbit.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace saltus::periodic {

double guard_side(flow::Crossing crossing, double h) {
  return crossing == flow::Crossing::kFalling  ? 1.0
         : crossing == flow::Crossing::kRising ? -1.0
                                               : (h >= 0 ? 1.0 : -1.0);
}

namespace {

std::shared_ptr<const flow::HybridSystem> non_null(std::shared_ptr<const flow::HybridSystem> system) {
  if (!system) throw std::invalid_argument("contact: no hybrid system");
  return system;
}

}  // namespace

ContactSuppressed::ContactSuppressed(std::shared_ptr<const flow::HybridSystem> system, Contact contact)
    : flow::ForwardingHybridSystem(non_null(std::move(system))),
      mode_(contact.mode),
      guard_(contact.guard),
      period_(contact.period),
      t_(contact.t),
      window_(contact.window) {
  if (!(contact.window > 0) || !(contact.period > 0))
    throw std::invalid_argument("contact: the window and the period must be positive");
}

void ContactSuppressed::set_window(double t, double window) {
  t_ = t;
  window_ = window;
}

Contact ContactSuppressed::contact() const { return {mode_, guard_, t_, window_, period_}; }

bool ContactSuppressed::suppressed(int mode, int k, double t) const {
  return mode == mode_ && k == guard_ && std::abs(std::remainder(t - t_, period_)) < window_;
}

double ContactSuppressed::guard(int mode, int k, double t, const Vector& x) const {
  const double h = inner().guard(mode, k, t, x);
  if (!suppressed(mode, k, t)) return h;
  // On the side the events come from, never zero: no sign change inside.
  return guard_side(inner().crossing(mode, k), h) * (1.0 + std::abs(h));
}

double ContactSuppressed::guard_rate(int mode, int k, double t, const Vector& x, const Vector& f) const {
  const double rate = inner().guard_rate(mode, k, t, x, f);
  if (!suppressed(mode, k, t)) return rate;
  const double h = inner().guard(mode, k, t, x);
  return guard_side(inner().crossing(mode, k), h) * (h < 0.0 ? -rate : rate);
}

namespace {

// The hybrid state's rate of approach sgn (h_x . f + h_t) of the contact's guard.
double rate(const flow::HybridSystem& system, int mode, int k, double t, const Vector& z) {
  Vector f, h_x;
  double h_t = 0.0;
  system.field(mode, t, z, &f);
  system.guard_gradient(mode, k, t, z, &h_x, &h_t);
  return guard_side(system.crossing(mode, k), system.guard(mode, k, t, z)) * (h_x.dot(f) + h_t);
}

// Guards are seen at the ends of the steps: a step that ends inside the
// window (where the contact's guard keeps its side) must not start before a
// crossing of another event of the guard. Those are at least a window's
// width outside it, so steps of half a window suffice.
ShootingOptions bounded_steps(double max_step, const Contact& contact, ShootingOptions options) {
  options.simulation.max_step = std::min(max_step, 0.5 * contact.window);
  return options;
}

}  // namespace

GrazingSystem::GrazingSystem(const ShootingSystem& shooting, const Contact& contact,
                             const Vector& reference) {
  if (shooting.parameter_size() < 1)
    throw std::invalid_argument("grazing system: the shooting problem carries no parameter");
  real_ = shooting.hybrid();
  suppressed_ = std::make_shared<ContactSuppressed>(real_, contact);
  virtual_ = std::make_shared<ShootingSystem>(
      suppressed_, shooting.parameter_size(),
      bounded_steps(shooting.options().simulation.max_step, contact, shooting.options()),
      shooting.options().autonomous ? shooting.hybrid_state(reference) : Vector());
  if (shooting.options().autonomous) virtual_->accept(reference);
}

std::vector<std::string> GrazingSystem::state_names() const {
  auto names = virtual_->state_names();
  names.push_back(virtual_->parameter_names().front());
  return names;
}

std::vector<std::string> GrazingSystem::parameter_names() const {
  const auto names = virtual_->parameter_names();
  return std::vector<std::string>(names.begin() + 1, names.end());
}

ContactMinimum GrazingSystem::minimum(const Vector& u, bool gradient) const {
  const flow::HybridSystem& system = *suppressed_;
  const Contact c = suppressed_->contact();
  const auto& options = virtual_->options();
  const Vector z0 = virtual_->hybrid_state(u);
  const double t0 = virtual_->start_time(u), t1 = t0 + virtual_->period(u);
  // The minimum: where the rate of the contact's guard rises through zero
  // inside the window (a section on the dense output, toms748 to the
  // event tolerance; the observer tells the section the mode).
  int mode = options.mode;
  const std::vector<flow::Section> sections = {{[&](double t, const Vector& x) {
                                                  return suppressed_->suppressed(mode, c.guard, t)
                                                             ? rate(system, mode, c.guard, t, x)
                                                             : 1.0;
                                                },
                                                flow::Crossing::kRising}};
  const flow::SimulationObserver observer = [&mode](double, const Vector&, int m) {
    mode = m;
    return true;
  };
  flow::SimulationOptions plain = options.simulation;
  plain.variational = false;
  plain.output_interval = 0.0;
  const flow::Trajectory tr = flow::simulate(system, options.mode, t0, z0, t1, plain, observer, sections);
  if (!tr.ok()) throw std::runtime_error("grazing: the virtual orbit could not be simulated: " + tr.message);
  const flow::SectionHit* best = nullptr;
  for (const auto& hit : tr.section_hits) {
    // A hit at the window's end is the jump of the section's value, not a minimum.
    const double offset = std::abs(std::remainder(hit.t - c.t, c.period));
    if (hit.mode != c.mode || offset > 0.99 * c.window) continue;
    if (!best || offset < std::abs(std::remainder(best->t - c.t, c.period))) best = &hit;
  }
  if (!best) {
    std::ostringstream why;
    why << "grazing: no minimum of " << system.guard_name(c.mode, c.guard) << " within " << c.window
        << " of t = " << c.t << " on the orbit";
    throw std::runtime_error(why.str());
  }
  ContactMinimum out;
  out.t = best->t;
  out.z = best->x;
  const double h = real_->guard(c.mode, c.guard, out.t, out.z);
  const double sgn = guard_side(real_->crossing(c.mode, c.guard), h);
  out.value = sgn * h;
  if (!gradient) return out;
  // dm/dz0 = sgn h_z(t*) Phi(t*, t0) over z = (x, p), the flow from the cut
  // to the minimum with its variational equations (saltation at the other
  // events).
  flow::SimulationOptions variational = options.simulation;
  variational.variational = true;
  variational.output_interval = 0.0;
  variational.constant_components = virtual_->parameter_size();
  const flow::Trajectory to = flow::simulate(system, options.mode, t0, z0, out.t, variational);
  if (!to.ok()) throw std::runtime_error("grazing: the virtual orbit could not be simulated: " + to.message);
  Vector h_z;
  double h_t = 0.0;
  real_->guard_gradient(c.mode, c.guard, to.t_end, to.x_end, &h_z, &h_t);
  const Vector dz = sgn * (to.transition_matrix.transpose() * h_z);
  const int n = z0.size() - virtual_->parameter_size(), q = virtual_->parameter_size();
  out.gradient = Vector::Zero(u.size());
  out.gradient.head(n) = dz.head(n);
  out.gradient.tail(q) = dz.tail(q);
  if (!options.autonomous && options.period_of) {
    // The cut t0 = phase T(p) moves with p: d x(t*) / d t0 = -Phi_xx f(t0).
    Vector f0, dT_dp;
    real_->field(options.mode, t0, z0, &f0);
    options.period_of(u.tail(q), &dT_dp);
    const double df0 = -dz.head(n).dot(f0.head(n));
    out.gradient.tail(q) += df0 * options.phase * dT_dp;
  }
  return out;
}

void GrazingSystem::residual(const double* u, double* f) const {
  const Vector uu = Eigen::Map<const Vector>(u, size());
  virtual_->residual(u, f);
  f[state_size() - 1] = minimum(uu, false).value;
}

void GrazingSystem::jacobian(const double* u, Matrix* J) const {
  const Vector uu = Eigen::Map<const Vector>(u, size());
  Matrix Js;
  virtual_->jacobian(u, &Js);
  J->resize(state_size(), size());
  J->topRows(Js.rows()) = Js;
  J->row(state_size() - 1) = minimum(uu, true).gradient.transpose();
}

void GrazingSystem::second_derivative(const double*, const double*, Matrix*) const {
  throw std::logic_error("second derivatives of a grazing system are not available");
}

void GrazingSystem::accept(const Vector& u) const {
  virtual_->accept(u);
  const ContactMinimum m = minimum(u, false);
  suppressed_->set_window(m.t, suppressed_->contact().window);
}

GrazingOrbit locate_grazing(const ShootingSystem& shooting, const Vector& y, const Contact& contact,
                            const NewtonOptions& options) {
  GrazingOrbit out;
  out.contact = contact;
  if (shooting.parameter_size() != 1) {
    out.message = "locating a grazing point needs exactly one parameter";
    return out;
  }
  try {
    const GrazingSystem system(shooting, contact, y);
    NewtonProblem problem;
    problem.residual = [&](const Vector& u, Vector* F) {
      F->resize(system.state_size());
      system.residual(u.data(), F->data());
    };
    problem.jacobian = [&](const Vector& u, Matrix* J) { system.jacobian(u.data(), J); };
    const NewtonResult r = damped_newton(problem, y, options);
    out.iterations = r.iterations;
    out.residual = r.residual;
    out.y = r.x;
    if (!r.converged()) {
      out.message = "Newton on the grazing system: " + to_string(r.status) + " " + r.message;
      return out;
    }
    const ContactMinimum m = system.minimum(r.x, false);
    out.contact.t = m.t;
    out.z = m.z;
    out.ok = true;
  } catch (const std::runtime_error& e) {
    out.message = e.what();
  }
  return out;
}

bool impacting_orbit_near(const ShootingSystem& shooting, const Contact& contact, Vector* z_guess,
                          double* tau_guess, double p, Vector* u, std::string* why) {
  const Vector& z_g = *z_guess;
  const auto& options = shooting.options();
  if (options.autonomous || shooting.parameter_size() != 1) {
    *why = "an impacting orbit near a grazing is solved for forced orbits in one parameter only";
    return false;
  }
  const std::shared_ptr<const flow::HybridSystem> real = shooting.hybrid();
  const int n = shooting.state_size(), m = contact.mode, k = contact.guard;
  Vector z0 = z_g;
  z0[n] = p;
  Vector probe(n + 1);
  probe << z0.head(n), p;
  const double T = shooting.period(probe);
  const auto suppressed =
      std::make_shared<ContactSuppressed>(real, Contact{m, k, contact.t, contact.window, T});
  flow::SimulationOptions sim = options.simulation;
  sim.output_interval = 0.0;
  sim.constant_components = 1;
  sim.max_step = std::min(sim.max_step, 0.5 * contact.window);  // as bounded_steps() says
  // w = (x, tau): one period from the reset of z at tau.
  const auto period_from = [&](const Vector& w, bool variational, Vector* z, Vector* plus, Matrix* G_x,
                               Vector* G_t) {
    *z = z0;
    z->head(n) = w.head(n);
    const double tau = w[n];
    suppressed->set_window(tau, contact.window);
    // The impact law, in the same mode, whatever a model's threshold for
    // slow impacts (sticking) decides near the grazing, where v_n -> 0.
    real->reset(m, k, m, tau, *z, plus, G_x, G_t);
    sim.variational = variational;
    flow::Trajectory tr = flow::simulate(*suppressed, m, tau, *plus, tau + T, sim);
    if (!tr.ok()) throw std::runtime_error("the impacting orbit could not be simulated: " + tr.message);
    return tr;
  };
  NewtonProblem problem;
  problem.residual = [&](const Vector& w, Vector* F) {
    Vector z, plus, G_t;
    Matrix G_x;
    const flow::Trajectory tr = period_from(w, false, &z, &plus, &G_x, &G_t);
    F->resize(n + 1);
    F->head(n) = tr.x_end.head(n) - w.head(n);
    (*F)[n] = real->guard(m, k, w[n], z);
  };
  problem.jacobian = [&](const Vector& w, Matrix* J) {
    Vector z, plus, G_t, f_end, f_start, h_x;
    Matrix G_x;
    const flow::Trajectory tr = period_from(w, true, &z, &plus, &G_x, &G_t);
    const Matrix& Phi = tr.transition_matrix;
    const double tau = w[n];
    real->field(tr.mode_end, tr.t_end, tr.x_end, &f_end);
    real->field(m, tau, plus, &f_start);
    double h_t = 0.0;
    real->guard_gradient(m, k, tau, z, &h_x, &h_t);
    J->setZero(n + 1, n + 1);
    J->topLeftCorner(n, n) = (Phi * G_x).topLeftCorner(n, n) - Matrix::Identity(n, n);
    // Both ends move with tau (T fixed): f at the end, -Phi f at the start, and the reset's own t-dependence.
    J->col(n).head(n) = (f_end - Phi * f_start + Phi * G_t).head(n);
    J->row(n).head(n) = h_x.head(n).transpose();
    (*J)(n, n) = h_t;
  };
  Vector w0(n + 1);
  w0 << z_g.head(n), *tau_guess;
  NewtonOptions newton;
  newton.residual_tolerance = 1e-11;
  newton.max_iterations = 40;
  NewtonResult r;
  try {
    r = damped_newton(problem, w0, newton);
  } catch (const std::runtime_error& e) {
    *why = e.what();
    return false;
  }
  if (!r.converged()) {
    *why = "Newton on the impacting orbit cut at its impact: " + to_string(r.status) + " " + r.message;
    return false;
  }
  // Its normal speed, and the state at the shooting system's cut.
  Vector z = z0, plus, G_t;
  Matrix G_x;
  z.head(n) = r.x.head(n);
  const double tau = r.x[n];
  Vector f, h_x;
  double h_t = 0.0;
  real->field(m, tau, z, &f);
  real->guard_gradient(m, k, tau, z, &h_x, &h_t);
  const double speed = -guard_side(real->crossing(m, k), 0.0) * (h_x.dot(f) + h_t);
  if (!(speed > 0)) {
    *why = "the orbit cut at the contact meets the guard from the wrong side (normal speed " +
           std::to_string(speed) + "): no impacting orbit here";
    return false;
  }
  real->reset(m, k, m, tau, z, &plus, &G_x, &G_t);
  *z_guess = z;
  *tau_guess = tau;
  const double t_start = shooting.start_time(probe);
  const double t_cut = t_start + T * std::ceil((tau - t_start) / T);
  Vector x_cut = plus;
  if (t_cut > tau) {
    flow::SimulationOptions plain = options.simulation;
    plain.variational = false;
    plain.output_interval = 0.0;
    const flow::Trajectory tr = flow::simulate(*real, m, tau, plus, t_cut, plain);
    if (!tr.ok()) {
      *why = "the impacting orbit could not be simulated to the cut: " + tr.message;
      return false;
    }
    x_cut = tr.x_end;
  }
  u->resize(n + 1);
  *u << x_cut.head(n), p;
  return true;
}

}  // namespace saltus::periodic
