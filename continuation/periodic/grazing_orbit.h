#pragma once
// Grazing periodic orbits located exactly. A periodic orbit grazes guard k
// of mode m when it touches the guard's surface tangentially: the distance
// sgn h(t, x(t)) along the orbit has a local minimum equal to zero (di
// Bernardo, Budd, Champneys & Kowalczyk 2008, "Piecewise-smooth Dynamical
// Systems", Sec. 2.5 and Ch. 4). Two branches meet there: the orbit without
// that contact, and the orbit with one impact more whose normal speed
// sgn (h_x . f + h_t) goes to zero at the grazing (with a restitution law the
// reset at zero normal speed is the identity, so both are the same orbit).
//
// On the impacting side the shooting Jacobian has a square-root singularity
// (Nordmark 1991: the saltation matrix carries 1 / (h_x . f + h_t)), so a
// branch cannot be followed into the grazing point. The smooth side can: the
// orbit with the contact switched off (its guard is no event in a time window
// around the contact, so the orbit may pass through the surface: a "virtual"
// orbit) is a smooth function of (x, p) through the grazing. The grazing
// orbit solves the shooting equations of that flow plus one more,
//
//   F(x, p) = phi_T(x, p) - x = 0,
//   m(x, p) = sgn h(t*, x(t*)) = 0,   t* the local minimum of sgn h near the contact,
//
// and m needs first derivatives only: at a minimum d/dt* of sgn h vanishes,
// so (envelope theorem) dm/d(x, p) = sgn h_(x,p)(t*) Phi(t*, t0), the
// saltation-corrected state-transition matrix of the flow from the cut to the
// minimum (ceres::Jet variational equations through the other events), plus
// the move of the cut with the forcing period when the cut follows it. With
// one parameter this is a square system, solved by damped_newton; with two
// it is the grazing curve, a System the engine continues.

#include <atomic>
#include <memory>
#include <string>

#include "continuation/flow/forwarding_hybrid_system.h"
#include "continuation/newton.h"
#include "continuation/periodic/shooting.h"

namespace saltus::periodic {

// A contact of an orbit with a guard: guard `guard` of `mode`, near the
// absolute time t of the period simulated from the orbit's cut.
struct Contact {
  int mode = 0, guard = 0;
  double t = 0.0;
  // Half width (time) of the window around t, repeated with `period`, in
  // which the contact is no event. It must hold the contact (and the
  // virtual orbit's passage through the surface) and no other event of the
  // guard.
  double window = 0.0;
  double period = 0.0;
};

// The hybrid system with one contact switched off: guard k of mode m is no
// event inside the contact's window (its value there is kept on the side the
// events come from, so that no sign change is seen; at the window's ends the
// true guard must be on that side too). Everything else is the system's.
// The window can move (set_window) while the system is shared: a shooting
// system over it follows a grazing curve.
class ContactSuppressed : public flow::ForwardingHybridSystem {
 public:
  ContactSuppressed(std::shared_ptr<const flow::HybridSystem> system, Contact contact);
  void set_window(double t, double window);
  Contact contact() const;
  bool suppressed(int mode, int k, double t) const;

  double guard(int mode, int k, double t, const Vector& x) const override;
  // The rate of guard() as it is: inside the window that of sgn (1 + |h|).
  double guard_rate(int mode, int k, double t, const Vector& x, const Vector& f) const override;

 private:
  int mode_, guard_;
  double period_;
  std::atomic<double> t_, window_;
};

// +1 when the events of a guard come from h > 0 (falling), -1 from h < 0
// (rising); for either direction the side h is on.
double guard_side(flow::Crossing crossing, double h);

// The local minimum of sgn h near the contact on the virtual orbit.
struct ContactMinimum {
  double value = 0.0;  // sgn h at the minimum: the distance (< 0: the virtual orbit passes through)
  double t = 0.0;
  Vector z;         // the hybrid state (x, p) there
  Vector gradient;  // d value / du, exact (envelope theorem), when asked
};

// The grazing system above. u = (x, [T,] p_1, ..., p_q) as for `shooting`;
// its state is (x, [T,] p_1), its parameters p_2, ..., p_q: one parameter
// gives a square system (the grazing point), two a curve.
class GrazingSystem : public System {
 public:
  // Throws std::invalid_argument when `shooting` carries no parameter or the
  // contact's window is not positive.
  GrazingSystem(const ShootingSystem& shooting, const Contact& contact, const Vector& reference);

  int state_size() const override { return virtual_->state_size() + 1; }
  int parameter_size() const override { return virtual_->parameter_size() - 1; }
  std::vector<std::string> state_names() const override;
  std::vector<std::string> parameter_names() const override;
  void residual(const double* u, double* f) const override;
  void jacobian(const double* u, Matrix* J) const override;
  // Second derivatives of the flow are not available (as for ShootingSystem).
  void second_derivative(const double* u, const double* d, Matrix* H) const override;
  // The shooting plane (autonomous) and the window move to the point.
  void accept(const Vector& u) const override;

  // Throws std::runtime_error when the window holds no minimum of the guard.
  ContactMinimum minimum(const Vector& u, bool gradient) const;
  const ShootingSystem& shooting() const { return *virtual_; }  // over the virtual flow
  const ContactSuppressed& suppressed() const { return *suppressed_; }

 private:
  std::shared_ptr<const flow::HybridSystem> real_;
  std::shared_ptr<ContactSuppressed> suppressed_;
  std::shared_ptr<ShootingSystem> virtual_;
};

struct GrazingOrbit {
  bool ok = false;
  std::string message;  // why not, when not ok
  Vector y;             // u = (x, [T,] p) of the grazing orbit
  Contact contact;      // at the minimum
  Vector z;             // the hybrid state at the contact
  double residual = 0.0;
  int iterations = 0;
};

// The grazing orbit near y (a point of a branch of `shooting`, one carried
// parameter) at the contact: damped Newton on the square grazing system.
GrazingOrbit locate_grazing(const ShootingSystem& shooting, const Vector& y, const Contact& contact,
                            const NewtonOptions& options = {});

// The orbit with the contact as an impact, near a grazing orbit, at the
// parameter p (non-autonomous orbits). The time-T map of such an orbit is
// singular at the grazing (Nordmark), but the orbit cut at its impact is
// not: with z the state just before the impact at time tau and g the reset,
//
//   phi_T(tau; g(tau, z)) - z = 0,   h(tau, z) = 0,
//
// (the flow without the contact near tau and tau + T, so that the orbit
// starts on the guard and ends on it) is regular through v_n = 0, where
// g is the identity. Solved by damped Newton from (*z, *tau) (the grazing
// orbit's contact state and time, or an earlier solution; updated to the
// solution), with Phi and the reset's Jacobians exact; the result is the
// orbit's state at the shooting system's cut, u = (x, p). False with *why
// when Newton fails or the normal speed is not positive (no impacting orbit
// on this side: a non-smooth fold).
bool impacting_orbit_near(const ShootingSystem& shooting, const Contact& contact, Vector* z, double* tau,
                          double p, Vector* u, std::string* why);

}  // namespace saltus::periodic
