#pragma once
// A ball bouncing on a table that moves as T(t) = A sin(omega t), the exact
// model: the constraint is the gap h = q - T(t) >= 0 with the table's
// position in it, and the impact law is Newton's with restitution e on the
// relative velocity,
//
//   q' = v,  v' = -g                        (flight, mode 0)
//   v+ - T'(t) = -e (v- - T'(t))            (impact at q = T(t))
//
// An impact whose rebound is slower than `stick_velocity` (relative) while the
// table presses the ball (g + T''(t) > 0) is the end of a Zeno accumulation of
// bounces: it is taken as an impact with restitution 0 and the ball then moves with the
// table (mode 1: q' = v, v' = T''(t)) until the contact force per unit mass,
// g + T''(t), falls to zero and the ball takes off (the transition scheme of
// Fig. 1 of Awrejcewicz & Kudra).

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "continuation/flow/parameters.h"

namespace saltus::models {

template <class P = double>
struct BouncingBallT {
  P g = P(9.81);               // gravity
  P e = P(0.8);                // restitution, in [0, 1]
  P A = P(0.01);               // table amplitude
  P omega = P(2.0 * M_PI);     // table angular frequency
  P stick_velocity = P(1e-5);  // rebound speed (relative) below which the ball comes to rest

  // The parameters by name (continuation/flow/parameters.h).
  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) {
    visit("g", self.g, "gravity");
    visit("e", self.e, "restitution, in [0, 1]");
    visit("A", self.A, "table amplitude: the table moves as A sin(omega t)");
    visit("omega", self.omega, "table angular frequency");
    visit("stick_velocity", self.stick_velocity, "relative rebound speed below which the ball comes to rest");
  }
  template <class Q>
  BouncingBallT<Q> cast() const {
    return flow::cast_parameters<BouncingBallT<Q>>(*this);
  }

  // Field, guards and resets compile on Taylor series: second derivatives of
  // the flow by the tangent-lifted system (continuation/flow/tangent_lifted.h).
  static constexpr bool tangent_liftable = true;

  enum Mode { kFlight = 0, kContact = 1 };

  void check() const {
    if (!(e >= 0.0 && e <= 1.0))
      throw std::invalid_argument("bouncing ball: restitution e = " + std::to_string(e) +
                                  " must be in [0, 1]");
    if (!(g > 0.0) || !std::isfinite(g))
      throw std::invalid_argument("bouncing ball: g = " + std::to_string(g) + " must be positive");
    if (!(stick_velocity >= 0.0)) throw std::invalid_argument("bouncing ball: stick_velocity must be >= 0");
    if (!(omega > 0.0) || !std::isfinite(omega) || !std::isfinite(A))
      throw std::invalid_argument("bouncing ball: omega = " + std::to_string(omega) +
                                  " must be positive and A = " + std::to_string(A) + " finite");
  }

  int dimension() const { return 2; }
  std::vector<std::string> state_names() const { return {"q", "v"}; }
  std::string mode_name(int mode) const { return mode == kFlight ? "flight" : "contact"; }
  std::string guard_name(int mode, int) const { return mode == kFlight ? "impact" : "take-off"; }
  int guard_count(int) const { return 1; }

  template <class T>
  T table(const T& t) const {
    using std::sin;
    return A * sin(omega * t);
  }
  template <class T>
  T table_velocity(const T& t) const {
    using std::cos;
    return A * omega * cos(omega * t);
  }
  template <class T>
  T table_acceleration(const T& t) const {
    using std::sin;
    return -A * omega * omega * sin(omega * t);
  }

  template <class T>
  void field(int mode, const T& t, const T* x, T* f) const {
    f[0] = x[1];
    f[1] = mode == kFlight ? T(-g) : table_acceleration(t);
  }

  // Flight: the gap; contact: the contact force per unit mass.
  template <class T>
  T guard(int mode, int, const T& t, const T* x) const {
    return mode == kFlight ? x[0] - table(t) : g + table_acceleration(t);
  }

  // After an impact the relative velocity is -e times the approach; when that
  // is below stick_velocity (e = 0, or the tail of a Zeno sequence), or when
  // the ball meets the table without approaching it (a hop too short to
  // resolve), the ball stays on the table while the table presses it.
  int next_mode(int mode, int, double t, const double* x) const {
    if (mode == kContact) return kFlight;
    const double relative = x[1] - table_velocity(t);
    const bool settles = relative >= 0.0 || e * -relative < stick_velocity;
    return settles && g + table_acceleration(t) > 0.0 ? kContact : kFlight;
  }

  template <class T>
  void reset(int mode, int, int next, const T& t, const T* x, T* x_plus) const {
    x_plus[0] = x[0];
    const T vt = table_velocity(t);
    if (mode == kContact || (next == kFlight && !(x[1] < vt))) {
      x_plus[1] = x[1];  // a take-off, or no approach: no impulse
    } else {
      x_plus[1] = next == kContact ? vt : vt - e * (x[1] - vt);
    }
  }
};

using BouncingBall = BouncingBallT<double>;

}  // namespace saltus::models
