#pragma once
// The stick-slip oscillator: a block of mass m on a belt moving at the
// constant speed v0, held by a spring k (and a damper c) to a fixed wall,
// with Coulomb friction between block and belt: static coefficient mu_s,
// kinetic mu_k <= mu_s, normal force m g. State (x, v): the spring's
// extension and the block's speed.
//
// Derivation. The relative speed of block over belt is h = v - v0, the
// switching function. Friction opposes the relative motion: while slipping
// it is -mu_k m g sign(h); while sticking (h = 0) it is whatever force in
// [-mu_s m g, mu_s m g] keeps h = 0. With the friction coefficient as the
// switching force lambda (models/filippov.h, (12)-(13)),
//
//   m v' = -k x - c v - lambda m g,     x' = v,
//   f(x, v, lambda) = ( v,  -(k/m) x - (c/m) v - lambda g ),
//
// affine in lambda with f_lambda = (0, -g); h_x = (0, 1), so
// h_x . f_lambda = -g < 0 and h_x . f(x, 0) = -(k x + c v)/m. Slipping uses the
// one-sided fields F+- = f(x, +-mu_k) (block faster / slower than the belt).
// On h = 0 Utkin's equivalent control (15) is
//
//   lambda_eq = -(k x + c v0) / (m g),
//
// the friction coefficient the spring and damper ask of the belt, and the
// sliding field (16) is F_s = (v0, 0): the block rides with the belt. It
// sticks while |lambda_eq| < mu_s, i.e. |k x + c v0| < mu_s m g, and breaks
// away where lambda_eq = -+mu_s, slipping with mu_k. This is the Filippov
// builder (models/filippov_hybrid.h) with the kinetic bound mu = mu_k for the
// fields and the static bound b = mu_s for the entry test and the exit
// guards; with mu_s = mu_k it is the plain Filippov system. At a breakaway
// the friction drops from mu_s m g to mu_k m g, so the slip field differs
// from the sticking one by (mu_s - mu_k) g in v' and the saltation matrix
// of the exit is not the identity (it is for mu_s = mu_k).
//
// Modes: "slip+" (v > v0), "slip-" (v < v0), "stick" (v = v0).

#include <memory>
#include <string>
#include <vector>

#include "models/filippov_hybrid.h"

namespace saltus::models {

template <class P = double>
struct StickSlipT {
  P m = P(1.0);   // block mass (kg)
  P k = P(1.0);   // spring stiffness (N/m)
  P c = P(0.0);   // damping (N s/m), >= 0
  P g = P(9.81);  // gravity (m/s^2): the normal force is m g
  P v0 = P(1.0);  // belt speed (m/s)
  // The friction coefficients are numbers in every cast: the Filippov flow
  // decides its modes on them.
  double mu_s = 0.4;  // static friction coefficient mu_s, >= mu
  double mu = 0.3;    // kinetic friction coefficient mu_k, > 0: the Filippov bound of |lambda|

  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) {
    visit("m", self.m, "block mass");
    visit("k", self.k, "spring stiffness");
    visit("c", self.c, "damping, >= 0");
    visit("g", self.g, "gravity: the normal force is m g");
    visit("v0", self.v0, "belt speed");
    visit("mu_s", self.mu_s, "static friction coefficient, >= mu_k");
    visit("mu_k", self.mu, "kinetic friction coefficient, > 0");
  }
  template <class Q>
  StickSlipT<Q> cast() const {
    return flow::cast_parameters<StickSlipT<Q>>(*this);
  }

  // Throws std::invalid_argument naming the first bad value: m, k, g not
  // positive, c negative, mu (= mu_k) not positive (negative friction), mu_s < mu_k,
  // any value not finite.
  void check() const;
  // The Filippov flow's bound for sticking (models/filippov_hybrid.h).
  double stick_bound() const { return mu_s; }

  // models/filippov.h's Model.
  int state_size() const { return 2; }
  std::vector<std::string> state_names() const { return {"x", "v"}; }

  template <class T>
  T switching(const T* s) const {
    return s[1] - v0;
  }
  template <class T>
  void field(const T* s, const T& lambda, T* f) const {
    f[0] = s[1];
    f[1] = -(k / m) * s[0] - (c / m) * s[1] - lambda * g;
  }
};

using StickSlip = StickSlipT<double>;
template <>
void StickSlipT<double>::check() const;

// The oscillator as a hybrid system (slip+, slip-, stick) with the stick
// bound b = mu_s. Throws std::invalid_argument as StickSlip::check.
using StickSlipFlow = filippov::FilippovFlow<StickSlip>;
std::shared_ptr<flow::AutoDiffHybrid<StickSlipFlow>> make_stick_slip_flow(StickSlip model);

// Mode indices of make_stick_slip_flow's system.
inline constexpr int kSlipPlus = filippov::kPlusMode, kSlipMinus = filippov::kMinusMode,
                     kStick = filippov::kSlidingMode;

}  // namespace saltus::models
