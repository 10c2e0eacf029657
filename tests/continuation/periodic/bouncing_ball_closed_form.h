#pragma once
// The bouncing ball's period-1 orbit in closed form (tests only), as derived
// in tests/continuation/periodic/shooting.test.cpp: one impact per forcing
// period tau = 2 pi / omega at the table phase phi, the ball leaving with
// u = g tau / 2 and returning with -u, so that Newton's law fixes the table
// velocity at impact,
//
//   A omega cos(phi) = V = (1 - e) g tau / (2 (1 + e)) = (1 - e) g pi / ((1 + e) omega).
//
// The impact map's Jacobian (trace 1 - e + a (1 + e) alpha + e^2... see
// shooting.test.cpp) has det e^2 and a multiplier
//   +1 iff alpha = -A omega^2 sin(phi) = 0: phi = 0, the fold of cycles
//      A_LPC = V / omega = (1 - e) g pi / ((1 + e) omega^2);
//   -1 iff A omega^2 sin(phi) = 2 g (1 + e^2) / (1 + e)^2, with cos(phi) as
//      above: A_PD = hypot(2 g (1 + e^2) / ((1 + e)^2 omega^2), V / omega).
// Both are curves in (A, omega) and in (A, e) (g fixed).

#include <cmath>

#include "continuation/system.h"

namespace saltus::testing {

struct BallClosedForm {
  double g = 9.81, e = 0.5, omega = 2 * M_PI;
  double tau() const { return 2 * M_PI / omega; }
  double V() const { return (1 - e) * g * tau() / (2 * (1 + e)); }
  double A_fold() const { return V() / omega; }
  double A_pd() const {
    return std::hypot(2 * g * (1 + e * e) / ((1 + e) * (1 + e) * omega * omega), V() / omega);
  }
  // The impact phase of the orbit at A (sign +1: the stable side, sin phi > 0).
  double phi(double A, double sign = 1.0) const { return sign * std::acos(V() / (A * omega)); }
  // (q, v) at time t0 of the orbit (t0 after the impact, within one period).
  Vector state(double A, double t0, double sign = 1.0) const {
    const double p = phi(A, sign), u = g * tau() / 2, s = t0 - p / omega;
    Vector x(2);
    x << A * std::sin(p) + u * s - g * s * s / 2, u - g * s;
    return x;
  }
};

}  // namespace saltus::testing
