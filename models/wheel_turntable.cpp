#include "models/wheel_turntable.h"

#include <sstream>
#include <stdexcept>

namespace saltus::models {

namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("wheel on turntable: " + what); }

std::string str(double x) {
  std::ostringstream out;
  out.precision(10);
  out << x;
  return out.str();
}

// |x| below this counts as zero in the conditions of (9)-(11) and of the
// special cases (sin(gamma) at gamma = 0 is exactly 0; at gamma = pi rounded
// pi it is 1.2e-16).
constexpr double kZero = 1e-12;

}  // namespace

WheelTurntable WheelTurntable::paper() { return WheelTurntable{}.with_two_fold_at(0.1859, -1.037); }

void WheelTurntable::check() const {
  const struct {
    const char* name;
    double value;
  } finite[] = {{"d", d},         {"m", m},         {"c1", c1},         {"c2", c2},
                {"beta", beta},   {"r0", r0},       {"omega0", omega0}, {"mu", mu},
                {"gamma", gamma}, {"kappa", kappa}, {"k2", k2}};
  for (const auto& f : finite) {
    if (!std::isfinite(f.value)) {
      if (std::string(f.name) == "kappa" || std::string(f.name) == "k2")
        bad(std::string(f.name) + " is not set (" + str(f.value) +
            "): give it, or take kappa and k2 from with_two_fold_at(r*, omega*), eqs. (10)-(11)");
      bad(std::string(f.name) + " = " + str(f.value) + " must be finite");
    }
  }
  if (!(m > 0.0)) bad("m = " + str(m) + " must be > 0");
  if (!(beta > 0.0)) bad("beta = " + str(beta) + " must be > 0 (Theta = beta^2 m is the top disc's inertia)");
  if (!(mu > 0.0)) bad("mu = " + str(mu) + " must be > 0");
  if (tyre == TyreModel::kStretchedString && !(kappa > 0.0))
    bad("kappa = " + str(kappa) +
        " must be > 0 for the stretched-string tyre (a = 3 kappa is the contact half-length, App. B); "
        "the sticking tyre (in a run file \"tyre\": \"sticking\") keeps the surface values for any kappa");
}

Eigen::Vector3d WheelTurntable::newton_euler(const Eigen::Vector3d& x, double F, double M) const {
  const double r = x[0], v = x[1], omega = x[2];
  const double R2 = k2 * (r0 - r) - c2 * v;
  const double s = std::sin(gamma), c = std::cos(gamma);
  // Unknowns (r'', phi'', R1).
  Eigen::Matrix3d A;
  Eigen::Vector3d b;
  // (31): m (-r phi'' + d omega^2 - 2 v omega) = R1 - F cos(gamma)
  A.row(0) << 0.0, -m * r, -1.0;
  b[0] = -m * d * omega * omega + 2.0 * m * v * omega - F * c;
  // (32): m (r'' - d phi'' - r omega^2) = R2 + F sin(gamma)
  A.row(1) << m, -m * d, 0.0;
  b[1] = R2 + F * s + m * r * omega * omega;
  // (33): beta^2 m phi'' = -c1 omega + d R2 + r R1 + M
  A.row(2) << 0.0, beta * beta * m, -r;
  b[2] = -c1 * omega + d * R2 + M;
  return A.fullPivLu().solve(b);
}

WheelTurntable::TwoFoldDesign WheelTurntable::design_two_fold(double r_star, double omega_star) const {
  if (!std::isfinite(r_star) || !std::isfinite(omega_star))
    bad("two-fold design: (r*, omega*) = (" + str(r_star) + ", " + str(omega_star) + ") must be finite");
  const double s = std::sin(gamma), c = std::cos(gamma), b2 = beta * beta;
  if (std::abs(s) <= kZero)
    bad("two-fold design: sin(gamma) = 0 (gamma = " + str(gamma) +
        "): h = -r (omega - omega0) cos(gamma) and (9) is undefined; see gamma_zero_two_folds() (Sec. VI.1)");
  if (std::abs(c) <= kZero)
    bad("two-fold design: cos(gamma) = 0 (gamma = " + str(gamma) +
        "): h_x . f_lambda = -(beta^2 + r^2) < 0, there are no two-folds (Sec. VI.2)");
  if (std::abs(r_star) <= kZero) bad("two-fold design: r* = 0 makes (10) singular");
  if (std::abs(r_star - r0) <= kZero) bad("two-fold design: r* = r0 = " + str(r0) + " makes (11) singular");
  const double p2 = d * r_star * c + (b2 + r_star * r_star) * s;
  if (std::abs(p2) <= kZero)
    bad("two-fold design: p2(r*) = 0 at r* = " + str(r_star) + " makes (11) singular");

  TwoFoldDesign out;
  out.r = r_star;
  out.omega = omega_star;
  out.v = (omega_star - omega0) * (d - r_star * c / s);  // (9)
  const double x[3] = {out.r, out.v, out.omega};
  out.g = rolling(x);  // = r* (omega* - omega0) / sin(gamma) on h = 0
  if (std::abs(out.g) <= kZero)
    bad("two-fold design: g* = 0 at (r*, omega*) = (" + str(r_star) + ", " + str(omega_star) +
        ") (omega* = omega0): the sticking moment sign(g) kappa lambda is undefined");
  const double g_sign = out.g > 0.0 ? 1.0 : -1.0;
  // (10), with the sign of g* (the text's form is g* > 0).
  out.kappa = -g_sign * (2.0 * r_star * r_star + b2 * (1.0 - std::cos(2.0 * gamma))) / (2.0 * r_star * c);
  // (11), as printed (rederived in the header).
  const double r = r_star, v = out.v, w = omega_star;
  const double numerator = s * (b2 + r * r) * (m * r * w * w - c2 * v) -
                           c * (c1 * r * w + c2 * d * r * v +
                                m * (r * r * (v * (w + omega0) - d * w * w) + b2 * v * (omega0 - w)));
  out.k2 = numerator / ((r - r0) * p2);
  return out;
}

WheelTurntable WheelTurntable::with_two_fold_at(double r_star, double omega_star) const {
  const TwoFoldDesign design = design_two_fold(r_star, omega_star);
  WheelTurntable copy = *this;
  copy.kappa = design.kappa;
  copy.k2 = design.k2;
  return copy;
}

std::vector<Eigen::Vector3d> WheelTurntable::gamma_zero_two_folds() const {
  if (std::abs(gamma) > kZero) bad("gamma_zero_two_folds: gamma = " + str(gamma) + " is not 0");
  check();
  std::vector<Eigen::Vector3d> out;
  for (double s : {+1.0, -1.0}) {
    // r* = -s kappa, omega* = omega0, and omega'(x*, 0) = 0 for v*.
    const double den = d * c2 - 2.0 * m * s * kappa * omega0;
    if (std::abs(den) <= kZero) continue;
    const double v = (d * (k2 * (r0 + s * kappa) - m * s * kappa * omega0 * omega0) - c1 * omega0) / den;
    // g* = -v* at gamma = 0, omega = omega0: the branch holds when sign(g*) = s.
    if (s * -v > 0.0) out.emplace_back(-s * kappa, v, omega0);
  }
  return out;
}

}  // namespace saltus::models
