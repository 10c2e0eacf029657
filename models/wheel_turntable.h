#pragma once
// The wheel on a turntable (Szalai & Jeffrey, Phys. Rev. E 90, 022914 (2014),
// Sec. II, eqs. (1)-(7), Appendices A and B; doi:10.1103/PhysRevE.90.022914).
//
// Two discs turn on one axis: the bottom one at the constant rate omega0, the
// top one (inertia Theta = beta^2 m) at omega = phi'. A slider (mass m) runs
// in a slit of the top disc at distance d from the axis, on a spring k2 (rest
// position r0) and damper c2; it carries a massless wheel at angle gamma to
// the slit, rolling on the bottom disc. State x = (r, v, omega), v = r'.
//
//   r'     = m (beta^2 + r^2) v,                                                  (1)
//   v'     = (beta^2 + d^2 + r^2) p1 - d (c1 + 2 m r v) omega + F p2 + d M,        (2)
//   omega' = d p1 - (c1 + 2 m r v) omega + F r cos(gamma) + M,                     (3)
//   p1 = k2 (r0 - r) - c2 v + m r omega^2,   p2 = d r cos(gamma) + (beta^2 + r^2) sin(gamma),
//   h = -(v - d (omega - omega0)) sin(gamma) - r (omega - omega0) cos(gamma),      (4)
//   g = -(v - d (omega - omega0)) cos(gamma) + r (omega - omega0) sin(gamma),      (5)
//   F = sign(h) mu (4/3 - cot(psi) / (18 kappa)),                                  (6)
//   M = sign(g) sign(h) (mu / 6) cot(psi),                                         (7)
//   psi = arccot(6 kappa) + |1 - (2/pi) arccot(6 kappa)| arctan|h / g|.
//
// Filippov form (Sec. IV, (12)-(13)). With lambda = mu sign(h), F = lambda Fh(x)
// and M = lambda Mh(x), Fh = 4/3 - cot(psi)/(18 kappa), Mh = sign(g) cot(psi)/6,
// so f(x, lambda) is affine in lambda everywhere, and on h = 0 (psi =
// arccot(6 kappa), cot psi = 6 kappa) Fh = 1 and Mh = sign(g) kappa: the
// sticking force F = lambda in [-mu, mu] and moment M = sign(g) kappa lambda
// (the paper writes M = kappa lambda, i.e. g > 0, which holds at its Sec. V
// two-fold). This is models/filippov.h's Model with h from (4). Two tyre
// options: kStretchedString is (6)-(7); kSticking keeps the surface values
// Fh = 1, Mh = sign(g) kappa off the surface too (the linear model of Sec. IV).
// Both have the same one-sided fields on h = 0, hence the same regions, sliding
// field, two-folds and constants K (22): the derivative of Fh, Mh through
// psi(|h|/|g|) is along h_x, and (22) differentiates h_x.F+- only along
// F+-, which are tangent to h = 0 at a two-fold (tested).
//
// The derivation of (1)-(7), of the tyre law (App. B) and of the two-fold
// design (9)-(11) from the mechanics, with the slips of the printed text it
// found and the special cases of Sec. VI, is in docs/wheel_turntable.md.

#include <Eigen/Dense>
#include <cmath>
#include <string>
#include <vector>

#include "continuation/flow/parameters.h"
#include "continuation/taylor.h"

namespace saltus::models {

enum class TyreModel {
  kStretchedString,  // (6)-(7): Fh, Mh depend on the slip angle arctan|h/g| off the surface
  kSticking,         // Fh = 1, Mh = sign(g) kappa everywhere (the surface values)
};

// The equations (1)-(5) with every constant of one scalar type P: double for
// the model below, ceres::Jet (or another AD scalar) where derivatives in a
// parameter are needed (the continuation of a two-fold in a parameter,
// analyses/two_fold/continuation.h). T is the scalar of the state; P
// converts to it (T(p)). WheelTurntable is the user-facing struct; it
// delegates (4), (5) and (1)-(3) to this one copy of the formulas.
template <class P>
struct WheelTurntableEquations {
  P d, m, c1, c2, beta, r0, omega0, gamma, kappa, k2;
  bool rescaled_time = true;

  // h, (4).
  template <class T>
  T switching(const T* x) const {
    using std::cos;
    using std::sin;
    const T s = T(sin(gamma)), c = T(cos(gamma));
    const T w = x[2] - T(omega0);
    return -(x[1] - T(d) * w) * s - x[0] * w * c;
  }
  // g, (5).
  template <class T>
  T rolling(const T* x) const {
    using std::cos;
    using std::sin;
    const T s = T(sin(gamma)), c = T(cos(gamma));
    const T w = x[2] - T(omega0);
    return -(x[1] - T(d) * w) * c + x[0] * w * s;
  }
  // (1)-(3) with friction force F and moment M given.
  template <class T>
  void field(const T* x, const T& F, const T& M, T* f) const {
    using std::cos;
    using std::sin;
    const T s = T(sin(gamma)), c = T(cos(gamma)), b2 = T(beta * beta);
    const T D(d), mass(m), damp2(c2), spring(k2), rest(r0);
    const T& r = x[0];
    const T& v = x[1];
    const T& omega = x[2];
    const T p1 = spring * (rest - r) - damp2 * v + mass * r * omega * omega;
    const T p2 = D * r * c + (b2 + r * r) * s;
    const T damping = (T(c1) + 2.0 * mass * r * v) * omega;
    f[0] = mass * (b2 + r * r) * v;
    f[1] = (b2 + D * D + r * r) * p1 - D * damping + F * p2 + D * M;
    f[2] = D * p1 - damping + F * r * c + M;
    if (!rescaled_time) {
      const T scale = mass * (b2 + r * r);
      for (int i = 0; i < 3; ++i) f[i] = f[i] / scale;
    }
  }
};

struct WheelTurntable {
  // Sec. V's constants.
  double d = 1.0;               // distance of the slit from the axis
  double m = 1.0;               // slider mass
  double c1 = 1e-3;             // damping of the top disc (c1 omega in (2)-(3))
  double c2 = 1e-3;             // damping of the slider
  double beta = 1.0 / 20.0;     // Theta = beta^2 m
  double r0 = 0.1;              // rest position of the slider
  double omega0 = -1.0;         // angular speed of the bottom disc
  double mu = 1.0;              // friction bound, |lambda| <= mu
  double gamma = -0.75 * M_PI;  // angle of the wheel to the slit
  // Set these, or take them from design_two_fold() / with_two_fold_at().
  double kappa = std::nan("");  // tyre length scale: M = sign(g) kappa lambda on h = 0
  double k2 = std::nan("");     // slider spring
  TyreModel tyre = TyreModel::kStretchedString;
  bool rescaled_time = true;  // (1)-(3) as printed; false: physical time (divided by m (beta^2 + r^2))

  // The paper's Sec. V system: the constants above and kappa, k2 from
  // (10)-(11) for the two-fold at (r*, omega*) = (0.1859, -1.037).
  static WheelTurntable paper();

  // The parameters by name (continuation/flow/parameters.h). All are numbers
  // (no cast to another scalar): they can be changed, not carried in a state.
  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) {
    visit("d", self.d, "distance of the slit from the axis");
    visit("m", self.m, "slider mass");
    visit("c1", self.c1, "damping of the top disc");
    visit("c2", self.c2, "damping of the slider");
    visit("beta", self.beta, "Theta = beta^2 m");
    visit("r0", self.r0, "rest position of the slider");
    visit("omega0", self.omega0, "angular speed of the bottom disc");
    visit("mu", self.mu, "friction bound, |lambda| <= mu");
    visit("gamma", self.gamma, "angle of the wheel to the slit");
    visit("kappa", self.kappa, "tyre length scale");
    visit("k2", self.k2, "slider spring");
  }
  template <class Q>
  WheelTurntable cast() const {
    return *this;
  }

  // Throws std::invalid_argument naming the first bad field.
  void check() const;

  int state_size() const { return 3; }
  std::vector<std::string> state_names() const { return {"r", "v", "omega"}; }

  // The constants as WheelTurntableEquations<P> (P = double here; a
  // continuation in a parameter uses P = ceres::Jet).
  template <class P = double>
  WheelTurntableEquations<P> equations() const {
    return {P(d), P(m), P(c1), P(c2), P(beta), P(r0), P(omega0), P(gamma), P(kappa), P(k2), rescaled_time};
  }

  // h, (4): the lateral slip velocity (the switching function).
  template <class T>
  T switching(const T* x) const {
    return equations().switching(x);
  }
  // g, (5): the rolling-direction velocity.
  template <class T>
  T rolling(const T* x) const {
    return equations().rolling(x);
  }

  // Fh and Mh: F = lambda Fh, M = lambda Mh. Where h = g = 0 (the wheel does
  // not move over the disc) the slip angle is undefined; there Fh = 1, Mh = 0
  // (the values on h = 0 as g -> 0).
  template <class T>
  void tyre_factors(const T* x, T* force, T* moment) const {
    const double g_sign = sign(series::value_of(rolling(x)));
    if (tyre == TyreModel::kSticking) {
      *force = T(1.0);
      *moment = T(g_sign * kappa);
      return;
    }
    using std::abs;
    using std::atan2;
    using std::cos;
    using std::sin;
    const T h = switching(x), g = rolling(x);
    if (series::value_of(h) == 0.0 && series::value_of(g) == 0.0) {
      // No relative velocity: the slip angle is undefined (atan2(0, 0) has no
      // derivative). Take the surface values (h -> 0 first), constant.
      *force = T(1.0);
      *moment = T(0.0);
      return;
    }
    const double a = 0.5 * M_PI - std::atan(6.0 * kappa);  // arccot(6 kappa)
    const double scale = std::abs(1.0 - 2.0 * a / M_PI);
    // arctan|h/g| as atan2(|h|, |g|): pi/2 at g = 0, where M stays continuous.
    const T psi = a + scale * atan2(abs(h), abs(g));
    const T cot_psi = cos(psi) / sin(psi);
    *force = 4.0 / 3.0 - cot_psi / (18.0 * kappa);
    *moment = g_sign * cot_psi / 6.0;
  }

  // f(x, lambda): (1)-(3) with F = lambda Fh, M = lambda Mh.
  template <class T>
  void field(const T* x, const T& lambda, T* f) const {
    T force, moment;
    tyre_factors(x, &force, &moment);
    equations().field(x, lambda * force, lambda * moment, f);
  }

  // The Newton-Euler equations (31)-(33) with the corrected friction terms,
  // solved for (r'', phi'', R1) in physical time at x with given friction
  // force F and moment M: the independent check of (1)-(3).
  Eigen::Vector3d newton_euler(const Eigen::Vector3d& x, double F, double M) const;

  // (9)-(11): the point x* = (r*, v*, omega*) and the kappa, k2 that make it a
  // two-fold. Throws std::invalid_argument where they are undefined
  // (sin(gamma) = 0: see gamma_zero_two_folds(); cos(gamma) = 0: there are
  // none; r* = 0, r* = r0, p2(r*) = 0, or g* = 0).
  struct TwoFoldDesign {
    double r = 0.0, v = 0.0, omega = 0.0;  // x*
    double kappa = 0.0;                    // (10) (with the sign of g*)
    double k2 = 0.0;                       // (11)
    double g = 0.0;                        // (5) at x* (> 0 for (10) as printed)
  };
  TwoFoldDesign design_two_fold(double r_star, double omega_star) const;
  // A copy with kappa and k2 from design_two_fold(r*, omega*).
  WheelTurntable with_two_fold_at(double r_star, double omega_star) const;

  // gamma = 0 (Sec. VI.1): the two-folds (-s kappa, v*_s, omega0), s = sign(g*)
  // = +-1, those consistent with their sign (0, 1 or 2 points). Throws
  // std::invalid_argument unless gamma = 0.
  std::vector<Eigen::Vector3d> gamma_zero_two_folds() const;

 private:
  static double sign(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }
};

}  // namespace saltus::models
