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

namespace saltus::models {

struct BouncingBall {
  double g = 9.81;               // gravity
  double e = 0.8;                // restitution, in [0, 1]
  double A = 0.01;               // table amplitude
  double omega = 2.0 * M_PI;     // table angular frequency
  double stick_velocity = 1e-5;  // rebound speed (relative) below which the ball comes to rest
  // With the amplitude in the state, x = (q, v, A) with A' = 0: the
  // state-transition matrix then carries d/dA too (shooting and continuation
  // in A use it).
  bool amplitude_in_state = false;

  enum Mode { kFlight = 0, kContact = 1 };

  void check() const {
    if (!(e >= 0.0 && e <= 1.0))
      throw std::invalid_argument("bouncing ball: restitution e = " + std::to_string(e) + " must be in [0, 1]");
    if (!(g > 0.0)) throw std::invalid_argument("bouncing ball: g = " + std::to_string(g) + " must be positive");
    if (!(stick_velocity >= 0.0))
      throw std::invalid_argument("bouncing ball: stick_velocity must be >= 0");
  }

  int dimension() const { return amplitude_in_state ? 3 : 2; }
  std::vector<std::string> state_names() const {
    if (amplitude_in_state) return {"q", "v", "A"};
    return {"q", "v"};
  }
  std::string mode_name(int mode) const { return mode == kFlight ? "flight" : "contact"; }
  std::string guard_name(int mode, int) const { return mode == kFlight ? "impact" : "take-off"; }
  int guard_count(int) const { return 1; }

  template <class T> T amplitude(const T* x) const { return amplitude_in_state ? x[2] : T(A); }
  template <class T> T table(const T& t, const T* x) const { using std::sin; return amplitude(x) * sin(omega * t); }
  template <class T> T table_velocity(const T& t, const T* x) const {
    using std::cos;
    return amplitude(x) * omega * cos(omega * t);
  }
  template <class T> T table_acceleration(const T& t, const T* x) const {
    using std::sin;
    return -amplitude(x) * omega * omega * sin(omega * t);
  }
  // The table with the amplitude A of the struct.
  double table(double t) const { return A * std::sin(omega * t); }
  double table_velocity(double t) const { return A * omega * std::cos(omega * t); }
  double table_acceleration(double t) const { return -A * omega * omega * std::sin(omega * t); }

  template <class T>
  void field(int mode, const T& t, const T* x, T* f) const {
    f[0] = x[1];
    f[1] = mode == kFlight ? T(-g) : table_acceleration(t, x);
    if (amplitude_in_state) f[2] = T(0.0);
  }

  // Flight: the gap; contact: the contact force per unit mass.
  template <class T>
  T guard(int mode, int, const T& t, const T* x) const {
    return mode == kFlight ? x[0] - table(t, x) : g + table_acceleration(t, x);
  }

  // After an impact the relative velocity is -e times the approach; when that
  // is below stick_velocity (e = 0, or the tail of a Zeno sequence), or when
  // the ball meets the table without approaching it (a hop too short to
  // resolve), the ball stays on the table while the table presses it.
  int next_mode(int mode, int, double t, const double* x) const {
    if (mode == kContact) return kFlight;
    const double relative = x[1] - table_velocity(t, x);
    const bool settles = relative >= 0.0 || e * -relative < stick_velocity;
    return settles && g + table_acceleration(t, x) > 0.0 ? kContact : kFlight;
  }

  template <class T>
  void reset(int mode, int, int next, const T& t, const T* x, T* x_plus) const {
    x_plus[0] = x[0];
    if (amplitude_in_state) x_plus[2] = x[2];
    const T vt = table_velocity(t, x);
    if (mode == kContact || (next == kFlight && !(x[1] < vt))) {
      x_plus[1] = x[1];  // a take-off, or no approach: no impulse
    } else {
      const double restitution = next == kContact ? 0.0 : e;
      x_plus[1] = vt - restitution * (x[1] - vt);
    }
  }
};

}  // namespace saltus::models
